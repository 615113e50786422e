import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';

// Config is an explicit input (docs/architecture.md, "Configuration: parsed once, passed down"): in
// libs/, only these parsers read the environment; everything else takes their result as an argument.
// A new reader belongs in its lib's parser, or is a new lib's one parser, added here on purpose.
const SERVICES = ['auth', 'gateway', 'kyc', 'orders', 'payments', 'settlement', 'webhooks'];
const ENV_PARSERS = [
  'libs/shared/config/src/env.ts', // loadEnv: `source` defaults to the process's environment
  ...SERVICES.map((s) => `libs/${s}/feature/src/config.ts`), // each service's load<Service>Config
  'libs/platform/infra/src/config.ts', // loadInfraConfig
  'libs/platform/runner/src/config.ts', // loadRunnerConfig
  'libs/shared/chain/src/config.ts', // loadLocalChainConfig
  'libs/shared/testing/src/test-env.ts', // loadTestEnv, and exportToWorkers for the global setup
];
// Shows the domain lint rule catching a read of the environment (its disable comment must be used).
const LINT_FIXTURES = ['libs/kyc/domain/lint-fixtures/banned-imports.ts'];
const ALLOWED = new Set([...ENV_PARSERS, ...LINT_FIXTURES]);

const ROOT = join(__dirname, '..', '..');
const CODE = new Set(['.ts', '.js', '.mjs', '.cjs']);
// `process.env` and `process['env']`, comments included: a comment naming it is read as a hint
const READS_ENV = /\bprocess\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])/;

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return codeFiles(path);
    return CODE.has(extname(entry.name)) ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

describe('who reads the environment in libs/', () => {
  it('only the config parsers (and the lint fixture that proves the domain ban)', () => {
    const readers = codeFiles(join(ROOT, 'libs')).filter((file) =>
      READS_ENV.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(readers.filter((file) => !ALLOWED.has(file))).toEqual([]);
  });

  it('lists files that exist', () => {
    expect([...ALLOWED].filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });
});
