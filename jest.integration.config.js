// Tier 2: each service against real Postgres, Kafka and anvil, started once for the run.
module.exports = {
  ...require('./jest.preset'),
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
  globalSetup: '<rootDir>/libs/shared/testing/src/jest/global-setup.ts',
  globalTeardown: '<rootDir>/libs/shared/testing/src/jest/global-teardown.ts',
  testTimeout: 120000,
};
