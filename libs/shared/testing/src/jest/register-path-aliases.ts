import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { join, resolve } from 'node:path';

// Jest's moduleNameMapper only applies inside test files; globalSetup/globalTeardown load through
// Node's own require, so the tsconfig path aliases (@onramp/*) are mapped here for that code.
// No @onramp/* import here (this file is what makes them work): the root is found from this file's
// place, libs/shared/testing/src/jest.
const root = resolve(__dirname, '..', '..', '..', '..', '..');
const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
  compilerOptions: { paths?: Record<string, string[]> };
};
const aliases = new Map(
  Object.entries(compilerOptions.paths ?? {}).flatMap(([alias, [target]]) =>
    target ? [[alias, join(root, target)]] : [],
  ),
);

type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleInternals = Module as unknown as { _resolveFilename: Resolve };
const original = moduleInternals._resolveFilename;
moduleInternals._resolveFilename = function resolveWithAliases(request: string, ...rest: unknown[]): string {
  return original.call(this, aliases.get(request) ?? request, ...rest);
};
