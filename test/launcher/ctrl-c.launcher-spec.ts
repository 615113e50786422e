import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '@onramp/chain';

import { NpmStart, processesUsing, waitUntil } from './support/npm-start';

const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 1000) + 60;

// One Ctrl-C stops `npm start` within 10 s in both modes, and takes every server it started with it
// (embedded Postgres, anvil, Kafka, the app processes): they live in a process group of their own,
// so the terminal's SIGINT reaches only the launcher, which stops them in order.
describe.each([
  ['embedded', 'start'],
  ['distributed', 'start:distributed'],
] as const)('one Ctrl-C stops npm start (%s)', (_mode, script) => {
  const dataDir = mkdtempSync(join(tmpdir(), `onramp-ctrlc-${script.replace(':', '-')}-`));
  chmodSync(dataDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster
  let run: NpmStart | undefined;

  afterAll(async () => {
    await run?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 0 within 10 s and leaves no server behind', async () => {
    run = new NpmStart({ script, dataDir, portOffset: OFFSET, chainPort: await freePort() });
    await run.ready();
    expect(processesUsing(dataDir).length).toBeGreaterThan(0);

    run.signalGroup('SIGINT');
    const exit = await run.exit(10_000);
    process.stderr.write(
      `[ctrl-c] ${script}: ${exit ? `exit ${exit.code} after ${exit.ms} ms` : 'still running after 10 s'}\n`,
    );
    expect(exit).toBeDefined();
    // npm re-raises the SIGINT on itself once its script has exited, as a shell would show it (130)
    expect(exit?.code === 0 || exit?.signal === 'SIGINT').toBe(true);
    expect(run.log()).not.toContain('again');
    expect(await waitUntil(() => processesUsing(dataDir).length === 0, 5_000)).toBe(true);
  });
});
