#!/usr/bin/env node
'use strict';
// Builds the package twice from the same sources, with no dependency but TypeScript (the repo's):
// dist/cjs (require) and dist/esm (import), each with its .d.ts. Node's ESM loader needs full relative
// specifiers ('./lib/x.js', './lib/dir/index.js'), which the sources do not spell out: they are
// completed in the ESM output, .js and .d.ts alike. Each dist folder says which module kind it holds.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');

const pkgDir = resolve(__dirname, '..');
const dist = join(pkgDir, 'dist');
const tsc = require.resolve('typescript/bin/tsc', { paths: [pkgDir] });

rmSync(dist, { recursive: true, force: true });
const build = (outDir, module, moduleResolution) =>
  execFileSync(
    process.execPath,
    [
      tsc,
      '-p',
      join(pkgDir, 'tsconfig.build.json'),
      '--outDir',
      outDir,
      '--module',
      module,
      '--moduleResolution',
      moduleResolution,
    ],
    { stdio: 'inherit' },
  );
build(join(dist, 'cjs'), 'commonjs', 'node');
build(join(dist, 'esm'), 'es2022', 'bundler');

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
for (const file of files(join(dist, 'esm')).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
  const source = readFileSync(file, 'utf8');
  const fixed = source.replace(
    /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*)(['"])/g,
    (all, head, spec, tail) => {
      if (/\.(js|json)$/.test(spec)) return all;
      const target = resolve(dirname(file), spec);
      const full =
        existsSync(`${target}.js`) || existsSync(`${target}.d.ts`) ? `${spec}.js` : `${spec}/index.js`;
      return `${head}${full}${tail}`;
    },
  );
  if (fixed !== source) writeFileSync(file, fixed);
}
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
writeFileSync(join(dist, 'esm', 'package.json'), '{ "type": "module" }\n');
process.stderr.write(`@onramp/sdk built: ${dist}/{cjs,esm}\n`);
