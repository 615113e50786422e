#!/usr/bin/env node
// `npm run build`: the production build. One `tsc` emit of every app's entry point, the migrate and
// kafka-topics tools and everything they import, into dist/ with the repository's layout
// (dist/apps/<app>/src/..., dist/libs/..., dist/tools/...); then, at build time:
//   - @onramp/* path aliases rewritten to relative requires (no tsconfig-paths, no swc at runtime);
//   - dist/apps/<app>/main.js, the one entry point per app (`node dist/apps/<app>/main.js`);
//   - docs/openapi copied to dist/docs/openapi (the gateway serves it);
//   - the sandbox dashboard's static files (plain ES modules and CSS) copied beside the gateway's code.
// Plain Node on purpose: it must run before anything is compiled. docs/deploy-build.md explains it.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const APPS = ['auth', 'chain-settlement', 'gateway', 'kyc', 'orders', 'payment-ingest', 'webhook-dispatch'];

// No argument: a clean build of everything. With app names (the Nx `build` target of each app): only
// those apps' entry points, compiled into the existing dist/ beside the rest.
function main(only) {
  const t0 = Date.now();
  for (const app of only) if (!APPS.includes(app)) throw new Error(`unknown app ${app}; apps: ${APPS.join(', ')}`);
  let project = 'tsconfig.build.json';
  if (only.length === 0) {
    fs.rmSync(DIST, { recursive: true, force: true });
  } else {
    project = path.join(ROOT, 'tmp', `tsconfig.build.${only.join('+')}.json`);
    fs.mkdirSync(path.dirname(project), { recursive: true });
    const files = only.map((app) => path.join(ROOT, 'apps', app, 'src', 'main.ts'));
    fs.writeFileSync(project, JSON.stringify({ extends: path.join(ROOT, 'tsconfig.build.json'), files }, null, 2));
  }
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', project], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const rewritten = rewriteAliases();
  for (const app of only.length > 0 ? only : APPS) {
    fs.writeFileSync(
      path.join(DIST, 'apps', app, 'main.js'),
      `'use strict';\n// Entry point of the ${app} app: node dist/apps/${app}/main.js\nrequire('./src/main.js');\n`,
    );
  }
  fs.cpSync(path.join(ROOT, 'docs', 'openapi'), path.join(DIST, 'docs', 'openapi'), { recursive: true });
  const dashboard = path.join('libs', 'gateway', 'feature', 'src', 'dashboard', 'public');
  fs.cpSync(path.join(ROOT, dashboard), path.join(DIST, dashboard), { recursive: true });
  const s = ((Date.now() - t0) / 1000).toFixed(1);
  process.stdout.write(`[build] dist/ in ${s} s (${rewritten} files with @onramp/* requires rewritten)\n`);
}

// @onramp/<lib> -> the relative path of the lib's compiled index, from each compiled file.
function rewriteAliases() {
  const { paths } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.base.json'), 'utf8')).compilerOptions;
  const targets = new Map(
    Object.entries(paths).map(([alias, [file]]) => [alias, path.join(DIST, file.replace(/\.ts$/, '.js'))]),
  );
  let count = 0;
  for (const file of walk(DIST)) {
    if (!file.endsWith('.js')) continue;
    const source = fs.readFileSync(file, 'utf8');
    const out = source.replace(/require\("(@onramp\/[\w-]+)"\)/g, (_m, alias) => {
      const target = targets.get(alias);
      if (!target) throw new Error(`${path.relative(ROOT, file)}: unknown alias ${alias}`);
      if (!fs.existsSync(target)) throw new Error(`${path.relative(ROOT, file)}: ${alias} was not compiled`);
      let rel = path.relative(path.dirname(file), target).split(path.sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return `require("${rel}")`;
    });
    if (/["']@onramp\//.test(out.replace(/^\/\/# sourceMappingURL.*$/m, ''))) {
      throw new Error(`${path.relative(ROOT, file)}: an @onramp/* reference the build cannot rewrite`);
    }
    if (out !== source) {
      fs.writeFileSync(file, out);
      count++;
    }
  }
  return count;
}

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else yield p;
  }
}

try {
  main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`[build] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
