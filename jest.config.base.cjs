/** Shared jest setup: TypeScript through swc, real Postgres and NATS, one database per test file. */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Real Postgres and NATS on a shared machine; also set at the root, where jest reads it for projects.
  testTimeout: 30000,
};
