import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { e2e } from './env';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BIN = join(__dirname, '..', '..', '..', 'bin', 'onramp.js');

// The real CLI in a child process, configured through env the way an operator would: the suite's
// admin and base URLs and admin key, unless a test overrides them (undefined removes a variable).
export function runOnramp(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ONRAMP_ADMIN_URL: e2e.adminUrl(),
    ONRAMP_BASE_URL: e2e.baseUrl(),
    ADMIN_API_KEY: e2e.adminKey(),
    ONRAMP_MERCHANT_ID: undefined,
    ONRAMP_MERCHANT_SECRET: undefined,
    ...env,
  };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

export function parseJson<T>(run: CliRun): T {
  if (run.code !== 0) throw new Error(`onramp exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
