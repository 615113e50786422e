import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '@onramp/chain';

import { NpmStart } from './support/npm-start';

const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 1000) + 80;

// A second `npm start` on the same data dir while the first runs: refused at once with one line
// that says what to do, no stack trace, and the running platform is left alone.
describe('a second npm start on a running data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'onramp-second-start-'));
  chmodSync(dataDir, 0o755);
  const runs: NpmStart[] = [];

  afterAll(async () => {
    await Promise.all(runs.map((r) => r.kill()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused within 10 s with a clear message, and the first keeps running', async () => {
    const chainPort = await freePort();
    const first = new NpmStart({ script: 'start', dataDir, portOffset: OFFSET, chainPort });
    runs.push(first);
    await first.ready();

    const second = new NpmStart({ script: 'start', dataDir, portOffset: OFFSET, chainPort });
    runs.push(second);
    const exit = await second.exit(10_000);
    process.stderr.write(
      `[second-start] ${exit ? `exit ${exit.code} after ${exit.ms} ms` : 'no exit in 10 s'}\n`,
    );
    expect(exit?.code).toBe(1);
    expect(second.log()).toContain(`is already running on ${dataDir}`);
    expect(second.log()).not.toMatch(/\n\s+at /); // no stack trace
    expect(second.log()).not.toContain('Press Ctrl-C');

    // the first platform still answers
    const base = /Orders API \(base url\):\s+(\S+)/.exec(first.log())?.[1];
    expect(base).toBeDefined();
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
