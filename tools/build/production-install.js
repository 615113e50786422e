#!/usr/bin/env node
// node tools/build/production-install.js [dir]: what the image's runtime stage holds, outside the
// repository: dist/ (from `npm run build`), package.json and package-lock.json, and `npm ci
// --omit=dev --ignore-scripts`. Outside the repository so that Node cannot fall back to the
// repository's node_modules (with its devDependencies) when resolving a package. The install is
// reused while package-lock.json is unchanged. Prints the directory. Used by the compiled e2e run.
'use strict';
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

// Default: one directory per checkout, so two checkouts on one machine do not share it.
function defaultDir() {
  const id = createHash('sha256').update(ROOT).digest('hex').slice(0, 10);
  return path.join(os.tmpdir(), `onramp-production-install-${id}`);
}

function productionInstall(dir = defaultDir()) {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'apps', 'gateway', 'main.js'))) {
    throw new Error('no build in dist/: run `npm run build` first');
  }
  fs.mkdirSync(dir, { recursive: true });
  const lock = fs.readFileSync(path.join(ROOT, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).update(fs.readFileSync(path.join(ROOT, 'package.json'))).digest('hex');
  const stamp = path.join(dir, 'node_modules', '.onramp-lock-hash');
  fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), lock);
  if (!fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== hash) {
    const t0 = Date.now();
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    fs.writeFileSync(stamp, hash);
    process.stderr.write(`[production-install] npm ci --omit=dev in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  return dir;
}

module.exports = { productionInstall };

if (require.main === module) {
  try {
    const dir = path.resolve(process.argv[2] ?? defaultDir());
    process.stdout.write(`${productionInstall(dir)}\n`);
  } catch (err) {
    process.stderr.write(`[production-install] failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
