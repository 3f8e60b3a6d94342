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
    // ES-module-only packages, compiled to CommonJS for Jest alone (tests/setup/esm-to-cjs.js).
    '/node_modules/jose/.+\\.js$': '<rootDir>/tests/setup/esm-to-cjs.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  // Tests start real servers, databases and browsers: give them room, but bounded.
  testTimeout: 30_000,
  maxWorkers: 2,
  // A worker has nothing of ours open after its last suite, but Node freeing its heap on a loaded
  // machine can take past Jest's default 500 ms, which kills it and warns of a leak
  // (docs/performance.md, "Test workers at exit"). One that really leaks is still killed and named.
  workerGracefulExitTimeout: 5_000,
  // ts-jest's module registry grows with every suite a worker runs; past this a worker is
  // replaced between suites instead of running out of heap in the middle of one.
  workerIdleMemoryLimit: '1GB',
  setupFiles: ['<rootDir>/tests/setup/env.ts'],
  globalSetup: '<rootDir>/tests/setup/build-once.ts',
  reporters: ['default', '<rootDir>/tests/setup/skipped-suites-reporter.js'],
};
