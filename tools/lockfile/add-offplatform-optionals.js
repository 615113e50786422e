#!/usr/bin/env node
// npm 11 writes no lockfile entry for a platform-specific optional dependency whose metadata the
// registry does not serve (here: a registry that only carries linux-x64 builds), yet `npm ci` then
// refuses the lockfile ("Missing: <pkg> from lock file"). This adds, for every such optional
// dependency, an entry that records only what npm needs to skip it: version, os/cpu and optional.
// Run after `npm install` whenever a dependency changes: node tools/lockfile/add-offplatform-optionals.js
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix', 'wasi'];
const CPU = [['arm64', 'arm64'], ['aarch64', 'arm64'], ['amd64', 'x64'], ['x64', 'x64'], ['x86_64', 'x64'], ['ia32', 'ia32'], ['arm', 'arm'], ['ppc64', 'ppc64'], ['s390x', 's390x'], ['riscv64', 'riscv64'], ['loong64', 'loong64'], ['wasm32', 'wasm32']];

function platformOf(name) {
  const base = name.split('/').pop();
  const parts = base.split('-');
  const os = OS.find((o) => parts.includes(o) || (o === 'win32' && parts.includes('windows')));
  const cpu = CPU.find(([token]) => parts.includes(token));
  return { os: os ? [os] : undefined, cpu: cpu ? [cpu[1]] : undefined };
}

// Where npm would look for a dependency of the package at `from`: its own node_modules, then up.
function resolves(from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return true;
    if (!dir) return false;
    const idx = dir.lastIndexOf('/node_modules/');
    dir = idx === -1 ? '' : dir.slice(0, idx);
  }
}

let added = 0;
for (const [loc, pkg] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    if (resolves(loc, name)) continue;
    const { os, cpu } = platformOf(name);
    if (!os && !cpu) continue; // not a platform build: leave it to npm
    const version = String(spec).replace(/^[\^~=]/, '');
    packages[`node_modules/${name}`] = {
      version,
      ...(cpu ? { cpu } : {}),
      ...(pkg.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os } : {}),
    };
    added++;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} off-platform optional entries`);
