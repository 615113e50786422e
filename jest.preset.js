// Shared jest settings: SWC transform (keeps decorator metadata for Nest) and the tsconfig path aliases.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

process.env.TZ = 'UTC';

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false }, target: 'es2022', keepClassNames: true } }],
  },
  setupFiles: ['reflect-metadata'],
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.onramp/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.onramp/'],
};
