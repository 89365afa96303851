/** `npm run test:dashboard`: the web dashboard in real headless Chromium (Debian's), against the built CLI. */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/dashboard'],
  testMatch: ['**/*.browser.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  maxWorkers: 1,
  testTimeout: 120_000,
  reporters: ['default', '<rootDir>/test/support/skip-reasons.reporter.js'],
};
