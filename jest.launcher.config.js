// Launcher tier: `npm start` itself, run as a developer runs it (a child process in a process group
// of its own, as a terminal would), for Ctrl-C and infrastructure failures. No global platform.
module.exports = {
  ...require('./jest.preset'),
  testMatch: ['<rootDir>/test/launcher/**/*.launcher-spec.ts'],
  testTimeout: 240000,
};
