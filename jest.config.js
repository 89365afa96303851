/** One jest run covers unit specs (next to the code), Nest-wired integration and CLI e2e tests. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  // The tui's specs load Ink, an ES module with top-level await: `npm run test:tui` (jest.tui.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/src/interfaces/tui/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    // ESM-only packages, compiled to CommonJS (jest on Node 20 cannot require an ES module).
    '/node_modules/@agentclientprotocol/.+\\.js$': '<rootDir>/test/support/esm-package.transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!@agentclientprotocol/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  maxWorkers: 2,
  testTimeout: 30000,
  // Every skipped test is listed with its reason after the run (a skip without one fails it).
  // The `installed` launch path (test/support/launch-paths.ts): npm pack + install, once per build.
  // Each test file's own data dir, never the developer's (test/support/private-data-dir.setup.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/private-data-dir.setup.ts'],
  globalSetup: '<rootDir>/test/support/installed-package.setup.ts',
  globalTeardown: '<rootDir>/test/support/installed-package.teardown.ts',
  // After it, the launch-path parity matrix: each parameterised suite × launch path × ripgrep variant.
  reporters: [
    'default',
    '<rootDir>/test/support/skip-reasons.reporter.js',
    '<rootDir>/test/support/launch-parity.reporter.js',
  ],
};
