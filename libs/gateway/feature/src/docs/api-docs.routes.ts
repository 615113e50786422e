import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';

import { ListenerName } from '../routes';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

// The committed documents (npm run docs:openapi writes them; tools/openapi/openapi.spec.ts keeps
// them equal to the code).
export const OPENAPI_DOCS_DIR = join(__dirname, '..', '..', '..', '..', '..', 'docs', 'openapi');

interface Asset {
  body: Buffer | string;
  type: string;
}

// Swagger UI comes with @nestjs/swagger; resolved from there so a hoisting change cannot lose it.
function swaggerUiDir(): string {
  const from = dirname(require.resolve('@nestjs/swagger'));
  return dirname(require.resolve('swagger-ui-dist/package.json', { paths: [from] }));
}

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>onramp API</title>
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/init.js"></script>
  </body>
</html>
`;

// "Try it out" calls the host the page came from, wherever the gateway runs; /openapi.json itself
// stays the committed document.
const INIT = `window.onload = function () {
  fetch('${OPENAPI_PATH}').then(function (res) { return res.json(); }).then(function (spec) {
    (spec.servers || []).forEach(function (server) {
      Object.keys(server.variables || {}).forEach(function (name) { server.variables[name].default = window.location.origin; });
    });
    window.ui = SwaggerUIBundle({ spec: spec, dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
  });
};
`;

let uiAssets: Record<string, Asset> | undefined;

function loadUiAssets(): Record<string, Asset> {
  const dir = swaggerUiDir();
  const file = (name: string, type: string): Asset => ({ body: readFileSync(join(dir, name)), type });
  uiAssets ??= {
    [DOCS_PATH]: { body: PAGE, type: 'text/html; charset=utf-8' },
    [`${DOCS_PATH}/init.js`]: { body: INIT, type: 'text/javascript; charset=utf-8' },
    [`${DOCS_PATH}/swagger-ui.css`]: file('swagger-ui.css', 'text/css; charset=utf-8'),
    [`${DOCS_PATH}/swagger-ui-bundle.js`]: file('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    [`${DOCS_PATH}/favicon-32x32.png`]: file('favicon-32x32.png', 'image/png'),
  };
  return uiAssets;
}

// GET /openapi.json (this host's document) and GET /docs (Swagger UI), without authentication (on
// the admin listener too: the document holds no secret, the operations need an operator key).
// Read at start-up: a gateway without its documents fails to start rather than serve 404s.
export function registerApiDocsRoutes(
  fastify: FastifyInstance,
  listener: ListenerName,
  constraints?: RouteShorthandOptions['constraints'],
): void {
  const assets: Record<string, Asset> = {
    [OPENAPI_PATH]: {
      body: readFileSync(join(OPENAPI_DOCS_DIR, `${listener}.openapi.json`)),
      type: 'application/json; charset=utf-8',
    },
    ...loadUiAssets(),
  };
  const document = JSON.parse(String(assets[OPENAPI_PATH]?.body)) as OpenApiDocument;
  for (const [path, asset] of Object.entries(assets)) {
    fastify.get(path, { constraints }, async (request, reply) =>
      reply
        .header('content-type', asset.type)
        .header('cache-control', path === OPENAPI_PATH ? 'no-cache' : 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(path === OPENAPI_PATH ? withServerFrom(document, request) : asset.body),
    );
  }
  // The bare host is where a newcomer lands first: send them to the reference.
  fastify.get('/', { constraints }, async (_request, reply) => reply.redirect(DOCS_PATH, 302));
}

interface OpenApiDocument {
  servers?: Array<{ url: string; description?: string; variables?: Record<string, { default: string }> }>;
}

// The committed document names the local default address; served, its server is the address this
// request came to (another port, a proxy's host), so clients and "Try it out" target this gateway.
function withServerFrom(document: OpenApiDocument, request: FastifyRequest): OpenApiDocument {
  const host = request.headers.host;
  if (!host || !/^[\w.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i.test(host)) return document;
  const origin = `${request.protocol}://${host}`;
  return {
    ...document,
    servers: (document.servers ?? []).map((server) => ({
      ...server,
      variables: Object.fromEntries(
        Object.entries(server.variables ?? {}).map(([name, v]) => [name, { ...v, default: origin }]),
      ),
    })),
  };
}
