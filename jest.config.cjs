/** Every service's jest project; each test file gets its own database and NATS prefix, so they run in parallel. */
const { transform } = require('./jest.config.base.cjs');

module.exports = {
  // Used for the global setup below; each project brings its own.
  transform,
  projects: ['<rootDir>/services/*/jest.config.cjs', '<rootDir>/deploy/jest.config.cjs'],
  // A global option: jest ignores it in the projects' configs, which left hooks on the 5 s default.
  testTimeout: 30000,
  // Every core, not jest's default of one fewer: the tests spend much of their time waiting on
  // Postgres, NATS and timers, so on a 2-core machine one worker left a core idle (the services'
  // suite took 832 s with one worker, 502 s with two, in CI's setting on this machine).
  maxWorkers: '100%',
  globalSetup: '<rootDir>/scripts/jest-global-setup.ts',
  globalTeardown: '<rootDir>/scripts/jest-global-teardown.ts',
};
