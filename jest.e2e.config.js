// Tier 3: black-box through the gateway, every app its own process.
module.exports = {
  ...require('./jest.preset'),
  testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/e2e/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/e2e/setup/global-teardown.ts',
  testTimeout: 180000,
};
