import { createHash } from 'node:crypto';

import Fastify, { FastifyInstance } from 'fastify';

import { DASHBOARD_PATH, registerDashboardRoutes } from './dashboard.routes';

describe('dashboard routes', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    registerDashboardRoutes(app, { explorerTxUrl: 'https://sepolia.arbiscan.io/tx/{hash}' });
    await app.ready();
  });

  afterAll(() => app.close());

  it('serves the page with a CSP that allows exactly its one inline script (the import map) by hash', async () => {
    const res = await app.inject({ method: 'GET', url: DASHBOARD_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const inline = [...res.body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (m) => m[1],
    );
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256').update(inline[0]).digest('base64');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toContain('unsafe');
    expect(res.body).toContain('content="https://sepolia.arbiscan.io/tx/{hash}"');
  });

  it('serves every module the import map and the page name, as JavaScript', async () => {
    const page = (await app.inject({ method: 'GET', url: DASHBOARD_PATH })).body;
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(page)![1]) as {
      imports: Record<string, string>;
    };
    const urls = [...Object.values(map.imports), `${DASHBOARD_PATH}/app/main.js`];
    for (const url of urls) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([
        url,
        200,
        'text/javascript; charset=utf-8',
      ]);
    }
    // Every relative import of the app's modules is served too.
    const main = (await app.inject({ method: 'GET', url: `${DASHBOARD_PATH}/app/main.js` })).body;
    for (const [, file] of main.matchAll(/from '\.\/([\w-]+\.js)'/g)) {
      expect((await app.inject({ method: 'GET', url: `${DASHBOARD_PATH}/app/${file}` })).statusCode).toBe(
        200,
      );
    }
  });

  it('redirects the trailing-slash path and 404s what it does not know', async () => {
    const slash = await app.inject({ method: 'GET', url: `${DASHBOARD_PATH}/` });
    expect([slash.statusCode, slash.headers.location]).toEqual([302, DASHBOARD_PATH]);
    expect((await app.inject({ method: 'GET', url: `${DASHBOARD_PATH}/app/nope.js` })).statusCode).toBe(404);
  });
});
