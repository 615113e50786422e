import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort, startAnvil } from '@onramp/chain';

import { NpmStart } from './support/npm-start';

const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 1000) + 70;

// Infrastructure that is not there, or not ours, stops `npm start` within 10 s with one message that
// names the address: never a silent exit, never a deployment to somebody else's node.
describe('npm start fails fast and says why', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'onramp-infra-fail-'));
  chmodSync(dataDir, 0o755);
  const runs: NpmStart[] = [];

  afterAll(async () => {
    await Promise.all(runs.map((r) => r.kill()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const failure = async (env: Record<string, string>, chainPort?: number) => {
    const run = new NpmStart({
      script: 'start',
      dataDir,
      portOffset: OFFSET,
      chainPort: chainPort ?? (await freePort()),
      env,
    });
    runs.push(run);
    const exit = await run.exit(10_000);
    process.stderr.write(
      `[infra-fail] ${exit ? `exit ${exit.code} after ${exit.ms} ms` : 'no exit in 10 s'}\n`,
    );
    return { exit, log: run.log() };
  };

  it('a DATABASE_URL pointing at nothing: exit 1 within 10 s, naming the address', async () => {
    const port = await freePort();
    const { exit, log } = await failure({ DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/onramp` });
    expect(exit?.code).toBe(1);
    expect(log).toContain(`127.0.0.1:${port}`);
    expect(log).toContain('DATABASE_URL');
    expect(log).not.toContain('s3cret');
    expect(log).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('another JSON-RPC node on the chain port: refused, naming the port', async () => {
    const foreign = await startAnvil();
    try {
      const port = Number(new URL(foreign.rpcUrl).port);
      const { exit, log } = await failure({}, port);
      expect(exit?.code).toBe(1);
      expect(log).toContain(`chain port ${port} is already in use by another JSON-RPC node`);
      expect(log).not.toContain('Press Ctrl-C');
    } finally {
      await foreign.stop();
    }
  });

  it('a program that is not a JSON-RPC node on the chain port: refused, naming the port', async () => {
    const port = await freePort();
    const server: Server = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const { exit, log } = await failure({}, port);
      expect(exit?.code).toBe(1);
      expect(log).toContain(`chain port ${port} is already in use by a program that is not a JSON-RPC node`);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('an internal port taken: EADDRINUSE naming the port, before anything starts', async () => {
    const port = 3012 + OFFSET; // ORDERS_PORT
    const server: Server = createServer((_req, res) => res.end('busy'));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const { exit, log } = await failure({});
      expect(exit?.code).toBe(1);
      expect(log).toContain(`EADDRINUSE`);
      expect(log).toContain(`${port} (ORDERS_PORT, orders)`);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
