import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm run bench -- --distributed --cpu-prof` starts every app with --cpu-prof; Node writes the
// profile only when the process exits, so a service stopped by SIGTERM must exit, not die of it.
describe('runService under --cpu-prof', () => {
  it('exits after its shutdown re-raises SIGTERM, so the profile is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-service-prof-'));
    try {
      const child = spawn(
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          '-r',
          '@swc-node/register',
          join(__dirname, 'testing', 'profiled-service.fixture.ts'),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
