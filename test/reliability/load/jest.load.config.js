/** `npm run test:load`: the multi-instance load test, kept out of `npm test` because it is heavy by design. */
module.exports = {
  rootDir: '../../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/reliability/load'],
  testMatch: ['**/*.load.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  maxWorkers: 1,
  testTimeout: 1_600_000,
};
