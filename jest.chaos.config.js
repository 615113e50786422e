// Tier 4: fault injection. Every app its own process against real Postgres, Kafka and anvil; the
// specs kill apps, stop the broker and restart the database mid-flow, then check that money moved
// exactly once (reconciliation against the chain) and every webhook arrived.
module.exports = {
  ...require('./jest.preset'),
  testMatch: ['<rootDir>/test/chaos/**/*.chaos-spec.ts'],
  globalSetup: '<rootDir>/test/chaos/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/chaos/setup/global-teardown.ts',
  testTimeout: 300000,
};
