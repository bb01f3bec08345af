/** Every service's jest project; each test file gets its own database and NATS prefix, so they run in parallel. */
module.exports = {
  projects: ['<rootDir>/services/*/jest.config.cjs'],
  forceExit: true,
};
