/**
 * The tui's component specs (src/interfaces/tui): Ink is an ES module whose layout engine loads
 * with top-level await, so it is imported, never required, and jest needs Node's VM modules for
 * that (`npm run test:tui` passes --experimental-vm-modules). The rest of the suite is jest.config.js.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src/interfaces/tui'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  maxWorkers: 2,
  testTimeout: 30000,
};
