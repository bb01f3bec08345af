/** Shared jest setup: TypeScript through swc, real Postgres and NATS, one database per test file. */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // NATS clients keep timers for a moment after close; never let that hold a CI run open.
  forceExit: true,
};
