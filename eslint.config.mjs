import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Domain libs (Nx tag `type:domain`) hold pure rules: given values in, decisions out. They import
// no framework, database, broker, chain provider, network or file, so they are tested without
// infrastructure and read without knowing Nest. docs/architecture.md ("Where does a new line go")
// explains what is allowed and why. Two mechanisms, one policy:
//   - npm packages: `bannedExternalImports` on the `type:domain` constraint below (keyed by tag);
//   - Node built-ins and ethers by name: Nx's project graph does not see `node:` modules, and a
//     whole-package ban cannot keep ethers' pure helpers while refusing its providers and wallets,
//     so a `no-restricted-imports` block applies to the files of every project tagged `type:domain`.
const DOMAIN_BANNED_PACKAGES = [
  '@nestjs/*',
  'typeorm',
  'typeorm/*',
  'pg',
  'pg/*',
  'kafkajs',
  'fastify',
  '@fastify/*',
  'class-validator',
  'class-transformer',
  'pino',
  '@opentelemetry/*',
];
// Pure ethers helpers (addresses, units, hashing, ABI encoding, error shapes): no network, no keys.
const DOMAIN_ETHERS_ALLOWED = [
  'getAddress',
  'isAddress',
  'ZeroAddress',
  'parseUnits',
  'formatUnits',
  'keccak256',
  'id',
  'toUtf8Bytes',
  'zeroPadValue',
  'Interface',
  'AbiCoder',
  'isError',
  'makeError',
];
// Node modules that reach outside the process (files, sockets, processes, threads, the machine).
// node:crypto (hashing, HMAC, random bytes) and node:path stay allowed: no I/O.
const NODE_IO_MODULES = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'dns/promises',
  'tls',
  'child_process',
  'cluster',
  'worker_threads',
  'readline',
  'os',
  'process',
  'v8',
  'vm',
  'inspector',
];

function domainRestrictions(ioModules) {
  return [
    'error',
    {
      paths: [
        {
          name: 'ethers',
          allowImportNames: DOMAIN_ETHERS_ALLOWED,
          message:
            'a type:domain lib uses only pure ethers helpers; providers, wallets and contracts belong in a service',
        },
        ...ioModules.flatMap((m) =>
          [m, `node:${m}`].map((name) => ({
            name,
            message: 'a type:domain lib does no I/O; pass the values in',
          })),
        ),
      ],
      patterns: [{ group: ['ethers/*'], message: 'import the pure ethers helpers from "ethers" by name' }],
    },
  ];
}

// Roots of the projects tagged type:domain, read from their project.json (as Nx does).
function domainProjectRoots() {
  const roots = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'project.json') {
        const { tags = [] } = JSON.parse(readFileSync(path, 'utf8'));
        if (tags.includes('type:domain')) roots.push(relative(import.meta.dirname, dir));
      }
    }
  };
  walk(join(import.meta.dirname, 'libs'));
  return roots;
}
const DOMAIN_ROOTS = domainProjectRoots();

const NO_FOCUSED_TESTS = {
  selector: "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='only']",
  message: 'no focused tests',
};

// Repositories own the SQL (docs/architecture.md, "Persistence: repositories own the SQL"): in a
// service, a statement, the query builder or a TypeORM data call on an EntityManager appears only in a
// `*.repository.ts` (and in migrations, which are history). Use cases, handlers, controllers and
// worker steps call repository methods named for what they do. Shared infrastructure
// (libs/shared/messaging, persistence, http) is not a service and keeps its own SQL.
const SQL_OUTSIDE_REPOSITORY =
  'SQL belongs in a *.repository.ts of the aggregate (docs/architecture.md, "Persistence: repositories own the SQL")';
const MANAGER_DATA_CALLS =
  'update|insert|upsert|save|remove|delete|softDelete|restore|increment|decrement|' +
  'find|findBy|findOne|findOneBy|findOneOrFail|findOneByOrFail|findAndCount|findAndCountBy|count|countBy|exists|existsBy|' +
  'sum|average|minimum|maximum|clear';
const SQL_KEYWORDS = String.raw`\b(SELECT|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\S+\s+SET|ON\s+CONFLICT|FOR\s+UPDATE)\b`;
const REPOSITORY_RESTRICTIONS = [
  {
    selector:
      'CallExpression[callee.property.name=/^(query|createQueryBuilder|getRepository|getTreeRepository)$/]',
    message: SQL_OUTSIDE_REPOSITORY,
  },
  {
    selector: `CallExpression[callee.object.name=/^(manager|entityManager|em|db|tx|trx)$/][callee.property.name=/^(${MANAGER_DATA_CALLS})$/]`,
    message: SQL_OUTSIDE_REPOSITORY,
  },
  {
    selector: `CallExpression[callee.object.property.name='manager'][callee.property.name=/^(${MANAGER_DATA_CALLS})$/]`,
    message: SQL_OUTSIDE_REPOSITORY,
  },
  { selector: `TemplateElement[value.raw=/${SQL_KEYWORDS}/]`, message: SQL_OUTSIDE_REPOSITORY },
  { selector: `Literal[value=/${SQL_KEYWORDS}/]`, message: SQL_OUTSIDE_REPOSITORY },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.onramp/**',
      'tmp/**',
      'coverage/**',
      'helm/**',
      '.nx/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', NO_FOCUSED_TESTS],
      // Boundaries: a service never imports another service's code; domain stays pure.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
            { sourceTag: 'scope:auth', onlyDependOnLibsWithTags: ['scope:shared', 'scope:auth'] },
            { sourceTag: 'scope:kyc', onlyDependOnLibsWithTags: ['scope:shared', 'scope:kyc'] },
            { sourceTag: 'scope:orders', onlyDependOnLibsWithTags: ['scope:shared', 'scope:orders'] },
            { sourceTag: 'scope:payments', onlyDependOnLibsWithTags: ['scope:shared', 'scope:payments'] },
            { sourceTag: 'scope:settlement', onlyDependOnLibsWithTags: ['scope:shared', 'scope:settlement'] },
            { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhooks'] },
            {
              sourceTag: 'scope:e2e',
              onlyDependOnLibsWithTags: ['scope:shared', 'scope:e2e', 'scope:tools'],
            },
            // Tools host services (the runner, the OpenAPI generator) through their feature libs: one scope
            // per service moved to libs/<service>/feature (docs/architecture.md, "Moving a service").
            {
              sourceTag: 'scope:tools',
              onlyDependOnLibsWithTags: [
                'scope:shared',
                'scope:tools',
                'scope:auth',
                'scope:gateway',
                'scope:kyc',
                'scope:orders',
                'scope:payments',
                'scope:settlement',
                'scope:webhooks',
              ],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:domain',
                'type:util',
                'type:contracts',
                'type:data-access',
                'type:feature',
                'type:host',
              ],
            },
            // The platform runner: starts services in its own process, so it may import their feature libs.
            {
              sourceTag: 'type:host',
              onlyDependOnLibsWithTags: [
                'type:domain',
                'type:util',
                'type:contracts',
                'type:data-access',
                'type:feature',
              ],
            },
            {
              sourceTag: 'type:feature',
              onlyDependOnLibsWithTags: [
                'type:domain',
                'type:util',
                'type:contracts',
                'type:data-access',
                'type:feature',
              ],
            },
            {
              sourceTag: 'type:data-access',
              onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:contracts', 'type:data-access'],
            },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'] },
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain'],
              bannedExternalImports: DOMAIN_BANNED_PACKAGES,
            },
            {
              sourceTag: 'type:util',
              onlyDependOnLibsWithTags: ['type:util', 'type:contracts', 'type:domain', 'type:data-access'],
            },
            // What `npm start` runs (the infra launcher, the platform runner) never needs a test helper.
            { sourceTag: 'layer:runtime', notDependOnLibsWithTags: ['layer:test'] },
          ],
        },
      ],
    },
  },
  {
    files: DOMAIN_ROOTS.map((root) => `${root}/**/*.ts`),
    rules: {
      'no-restricted-imports': domainRestrictions(NODE_IO_MODULES),
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'a type:domain lib takes its settings as arguments' },
      ],
    },
  },
  {
    // A domain spec may read its own fixture files (e.g. bank statements in fixtures/).
    files: DOMAIN_ROOTS.map((root) => `${root}/**/*.spec.ts`),
    rules: {
      'no-restricted-imports': domainRestrictions(NODE_IO_MODULES.filter((m) => !m.startsWith('fs'))),
    },
  },
  {
    // A service's code: only its repositories hold SQL. This block replaces the whole rule of the
    // first one for these files, so it repeats the focused-test ban.
    // libs/orders/feature/lint-fixtures/sql-outside-repository.ts proves every selector still fires.
    files: ['libs/*/feature/**/*.ts', 'apps/*/src/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/migrations/**', '**/*.spec.ts', '**/*.int-spec.ts', '**/testing/**'],
    rules: { 'no-restricted-syntax': ['error', NO_FOCUSED_TESTS, ...REPOSITORY_RESTRICTIONS] },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', '**/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
