/** One jest run covers unit specs (next to the code), Nest-wired integration and CLI e2e tests. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  maxWorkers: 2,
  testTimeout: 30000,
};
