// `npm run fuzz:api`: schemathesis against both public hosts' /openapi.json of a fresh `npm start`,
// with the demo merchant's token. Fails on any 5xx and on any response outside the documented
// schema. Bounded: a fixed number of examples per operation (FUZZ_MAX_EXAMPLES, default 15) and a
// wall-clock cap per host, so it takes a few minutes at most.
//
//   SCHEMATHESIS=/path/to/schemathesis npm run fuzz:api   (.ci/run installs the pinned version)
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startPlatform } from '../run/walkthrough';

const CHECKS = 'not_a_server_error,response_schema_conformance';
const HOST_TIMEOUT_S = 150;

async function merchantToken(base: string, id: string, secret: string): Promise<string> {
  const res = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
  });
  if (!res.ok) throw new Error(`POST /auth/token answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

function fuzz(name: string, schemaUrl: string, token: string): boolean {
  const bin = process.env.SCHEMATHESIS ?? 'schemathesis';
  const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? '15';
  const t0 = Date.now();
  const result = spawnSync(
    'timeout',
    [
      String(HOST_TIMEOUT_S),
      bin,
      'run',
      schemaUrl,
      '--checks',
      CHECKS,
      '--max-examples',
      maxExamples,
      // One worker: with two, hypothesis parses lambdas' source from both threads at once, and
      // CPython 3.11's AST constructor keeps one recursion counter per interpreter, so the race
      // now and then fails a run with "AST constructor recursion depth mismatch" (CPython
      // gh-106905), a runtime error of the tool, not a finding. The runs take seconds either way.
      '--workers',
      '1',
      '--request-timeout',
      '10',
      '--header',
      `Authorization: Bearer ${token}`,
      '--no-color',
    ],
    { encoding: 'utf8', env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false' } },
  );
  // The token is on schemathesis' command line, never in its report: reproduction commands show
  // headers, so they are masked before printing.
  const output = `${result.stdout}${result.stderr}`.split(token).join('<token>');
  const ok = result.status === 0;
  process.stdout.write(
    `[fuzz] ${name}: ${ok ? 'ok' : `FAILED (exit ${result.status ?? result.signal})`} in ${Math.round((Date.now() - t0) / 1000)} s\n`,
  );
  if (!ok || process.env.FUZZ_VERBOSE) process.stdout.write(`${output}\n`);
  else
    process.stdout.write(
      `${output
        .split('\n')
        .filter((l) => /passed|failed|operations|cases/i.test(l))
        .slice(-6)
        .join('\n')}\n`,
    );
  return ok;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'onramp-fuzz-'));
  chmodSync(dataDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster
  const { child, banner } = await startPlatform(dataDir);
  let ok = false;
  try {
    const token = await merchantToken(banner.base, banner.merchantId, banner.merchantSecret);
    const base = fuzz('base host', `${banner.base}/openapi.json`, token);
    const kyc = fuzz('kyc host', `${banner.kyc}/openapi.json`, token);
    ok = base && kyc;
  } finally {
    process.kill(-(child.pid as number), 'SIGINT');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`[fuzz] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
