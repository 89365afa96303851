/**
 * `npm run test:agents`: the agent providers against the real agent CLIs (pinned, installed
 * on first use into a cache outside the repo) and a scripted model server on 127.0.0.1.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/agents'],
  testMatch: ['**/*.cli.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/agents/agents.global-setup.ts',
  // Each test file's own data dir, never the developer's (test/support/private-data-dir.setup.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/private-data-dir.setup.ts'],
  maxWorkers: 2,
  // The CLIs take 1–10 s per run on a quiet machine; this one is shared and slow.
  testTimeout: 240_000,
};
