// Plain CommonJS, so Jest reads it without a TypeScript loader; the test files themselves go
// through ts-jest.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  // The generated Prisma client imports its siblings as `./x.js`; in ts-jest they are `.ts` files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  },
  // Tests start real servers, databases and browsers: give them room, but bounded.
  testTimeout: 30_000,
  maxWorkers: 2,
  // Jest's runner, waiting longer for a worker to exit at the end of a run (see the file).
  runner: '<rootDir>/tests/setup/runner.js',
  setupFiles: ['<rootDir>/tests/setup/env.ts'],
  globalSetup: '<rootDir>/tests/setup/build-once.ts',
  reporters: ['default', '<rootDir>/tests/setup/skipped-suites-reporter.js'],
};
