import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { FastifyInstance, RouteShorthandOptions } from 'fastify';

export const DASHBOARD_PATH = '/dashboard';

// The page's own modules (plain ES modules, no build step) live beside this file.
export const DASHBOARD_PUBLIC_DIR = join(__dirname, 'public');

export interface DashboardOptions {
  // Block explorer URL of a transaction with `{hash}` in it; empty: the hash is shown as text.
  explorerTxUrl: string;
}

interface Asset {
  body: Buffer | string;
  type: string;
}

// Preact and htm are served from node_modules as they were published (exact versions in
// package.json): no bundler, no CDN. `preact/hooks` imports the bare name "preact", which the
// page's import map resolves.
const VENDOR: Record<string, { pkg: string; file: string }> = {
  'preact.mjs': { pkg: 'preact', file: 'dist/preact.mjs' },
  'preact-hooks.mjs': { pkg: 'preact', file: 'hooks/dist/hooks.mjs' },
  'htm.mjs': { pkg: 'htm', file: 'dist/htm.module.js' },
};

const IMPORT_MAP = JSON.stringify({
  imports: {
    preact: `${DASHBOARD_PATH}/vendor/preact.mjs`,
    'preact/hooks': `${DASHBOARD_PATH}/vendor/preact-hooks.mjs`,
    htm: `${DASHBOARD_PATH}/vendor/htm.mjs`,
  },
});

// The import map is the page's only inline script; the CSP allows exactly it by its hash.
const IMPORT_MAP_HASH = createHash('sha256').update(IMPORT_MAP).digest('base64');

export const DASHBOARD_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${IMPORT_MAP_HASH}'`,
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeAttr = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function page(opts: DashboardOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="onramp-explorer-tx-url" content="${escapeAttr(opts.explorerTxUrl)}" />
    <title>onramp sandbox dashboard</title>
    <link rel="stylesheet" href="${DASHBOARD_PATH}/dashboard.css" />
    <script type="importmap">${IMPORT_MAP}</script>
    <script type="module" src="${DASHBOARD_PATH}/app/main.js"></script>
  </head>
  <body>
    <div id="app"><noscript>The dashboard needs JavaScript.</noscript></div>
  </body>
</html>
`;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function typeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.'));
  const type = TYPES[ext];
  if (!type) throw new Error(`dashboard: no content type for ${name}`);
  return type;
}

// The package's directory, found from its entry point (htm's "exports" hide its package.json).
function packageDir(pkg: string): string {
  let dir = dirname(require.resolve(pkg));
  while (!existsSync(join(dir, 'package.json')) || !dir.endsWith(join('node_modules', pkg))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`dashboard: cannot find the directory of ${pkg}`);
    dir = parent;
  }
  return dir;
}

// Every asset is read once at start-up: a gateway missing one fails to start instead of serving 404s.
function loadAssets(opts: DashboardOptions): Record<string, Asset> {
  const assets: Record<string, Asset> = {
    [DASHBOARD_PATH]: { body: page(opts), type: 'text/html; charset=utf-8' },
    [`${DASHBOARD_PATH}/dashboard.css`]: {
      body: readFileSync(join(DASHBOARD_PUBLIC_DIR, 'dashboard.css')),
      type: TYPES['.css'],
    },
  };
  for (const name of readdirSync(join(DASHBOARD_PUBLIC_DIR, 'app'))) {
    assets[`${DASHBOARD_PATH}/app/${name}`] = {
      body: readFileSync(join(DASHBOARD_PUBLIC_DIR, 'app', name)),
      type: typeOf(name),
    };
  }
  for (const [name, { pkg, file }] of Object.entries(VENDOR)) {
    const root = packageDir(pkg);
    assets[`${DASHBOARD_PATH}/vendor/${name}`] = { body: readFileSync(join(root, file)), type: typeOf(name) };
  }
  return assets;
}

// GET /dashboard and its assets, without authentication (the page logs in with the merchant's id
// and secret through POST /auth/token and then calls the API like any client).
export function registerDashboardRoutes(
  fastify: FastifyInstance,
  opts: DashboardOptions,
  constraints?: RouteShorthandOptions['constraints'],
): void {
  for (const [path, asset] of Object.entries(loadAssets(opts))) {
    fastify.get(path, { constraints }, async (_request, reply) =>
      reply
        .header('content-type', asset.type)
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', DASHBOARD_CSP)
        .header('referrer-policy', 'no-referrer')
        .send(asset.body),
    );
  }
  fastify.get(`${DASHBOARD_PATH}/`, { constraints }, async (_request, reply) =>
    reply.redirect(DASHBOARD_PATH),
  );
}
