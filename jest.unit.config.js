// Tier 1: pure tests beside the code; no infrastructure.
module.exports = {
  ...require('./jest.preset'),
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
};
