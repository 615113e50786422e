import { join } from 'node:path';

import { portOf, resolvePorts } from '@onramp/platform-runner';

import { BenchContext, Row, waitQuiet } from '../bench-context';
import { openMerchant, orderBody } from '../bench-merchant';
import { forkScript } from '../child-process';
import { LoadResult, runLoad } from '../load-loop';
import { cpuSnapshot, formatCpuPerItem } from '../process-cpu';

const CONCURRENCY = 16;
// The load before the timed window, not counted, on both sides. A platform started seconds before
// took about 10 s of this load to reach its pace (2 s windows from its first order: 171, 243, 309,
// 368, 542, 630 orders/s; its JIT compiling the request path, each pooled connection preparing its
// statements), and 3 s had left the timed window reading it still warming (docs/performance-journal.md,
// session of 2026-12-01, sixth part). Seven processes in distributed mode take longer.
const WARM_UP_S = 10;
const DISTRIBUTED_WARM_UP_S = 15;

// P1: POST /orders/create through the gateway, 16 connections, against a bare Fastify + pg INSERT
// server on the same Postgres driven by the same load loop.
export async function probeOrderCreation(ctx: BenchContext): Promise<Row[]> {
  const durationMs = (ctx.opts.durationS ?? ctx.size(15, 2)) * 1000;
  const warmupMs = ctx.size((ctx.opts.distributed ? DISTRIBUTED_WARM_UP_S : WARM_UP_S) * 1000, 500);
  const merchant = await openMerchant(ctx.platform, 'Bench P1');
  const platformLoad = (ms: number, base = ctx.platform.urls.base): Promise<LoadResult> =>
    runLoad({
      url: `${base}/orders/create`,
      headers: { authorization: `Bearer ${merchant.token}` },
      body: () => orderBody(merchant),
      concurrency: CONCURRENCY,
      durationMs: ms,
      expectStatus: 201,
    });
  ctx.log(
    `P1 platform: ${CONCURRENCY} connections, ${durationMs / 1000} s (after ${warmupMs / 1000} s warm-up)`,
  );
  await platformLoad(warmupMs);
  if (ctx.opts.countStatements) await waitQuiet(ctx); // the warm-up's events out of the window
  // through the events each order sets off (until the platform is quiet again)
  const counts = await ctx.countWindow('P1', 'create order', 'order');
  // CPU per order of each process beside the bare server's per request: where the gap is spent.
  // The platform's window runs until it is quiet again, so the events each order sets off count.
  const loadLoop = { 'load loop': process.pid };
  const cpuBefore = cpuSnapshot(ctx.hostPid, loadLoop);
  const platform = await platformLoad(durationMs);
  if (platform.errors) ctx.log(`P1 platform: ${platform.errors} errors, first: ${platform.firstError}`);
  await waitQuiet(ctx);
  ctx.log(
    `P1: CPU per order (ms): ${formatCpuPerItem(cpuBefore, cpuSnapshot(ctx.hostPid, loadLoop), platform.n)}`,
  );
  await counts.end(platform.n);

  // What the gateway costs (a note in the log, not a row: no merchant reaches a service directly):
  // the same load straight at the orders service, then through the gateway again, equally long and
  // each from a quiet platform. Against the timed window above instead, which began right after the
  // warm-up, the pair had read the gateway at 3-4 % one run and 30 % the next (2026-12-02, midday).
  const ordersUrl = `http://127.0.0.1:${portOf(resolvePorts(ctx.platform.env), 'orders')}`;
  const pairMs = Math.max(ctx.size(3000, 500), durationMs / 3);
  const side = async (base: string) => {
    const before = cpuSnapshot(ctx.hostPid, loadLoop);
    const result = await platformLoad(pairMs, base);
    await waitQuiet(ctx);
    return { result, cpu: formatCpuPerItem(before, cpuSnapshot(ctx.hostPid, loadLoop), result.n) };
  };
  const direct = await side(ordersUrl);
  const proxied = await side(ctx.platform.urls.base);
  const failed = [direct, proxied].find((s) => s.result.errors > 0)?.result;
  ctx.log(
    failed
      ? `P1 straight at the orders service and through the gateway: ${failed.errors} errors, first: ${failed.firstError}`
      : `P1 straight at the orders service (no gateway): ${direct.result.perSecond.toFixed(0)} req/s, p50 ${direct.result.p50.toFixed(1)} ms, CPU per order (ms): ${direct.cpu}; ` +
          `then through the gateway: ${proxied.result.perSecond.toFixed(0)} req/s, p50 ${proxied.result.p50.toFixed(1)} ms, CPU per order (ms): ${proxied.cpu}`,
  );

  const bare = await forkScript<{ url: string }>('bare-server.ts', [], {
    logFile: join(ctx.logDir, 'bare-server.log'),
    env: { DATABASE_URL: ctx.platform.env.DATABASE_URL },
  });
  let baseline: LoadResult;
  try {
    const bareLoad = (ms: number): Promise<LoadResult> =>
      runLoad({
        url: `${bare.ready.url}/orders/create`,
        body: () => orderBody(merchant),
        concurrency: CONCURRENCY,
        durationMs: ms,
        expectStatus: 201,
      });
    ctx.log(`P1 baseline: bare Fastify + pg INSERT, same load`);
    await bareLoad(warmupMs);
    const roles = { ...loadLoop, 'bare server': bare.proc.pid ?? 0 };
    const before = cpuSnapshot(ctx.hostPid, roles);
    baseline = await bareLoad(durationMs);
    ctx.log(
      `P1 baseline: CPU per request (ms): ${formatCpuPerItem(before, cpuSnapshot(ctx.hostPid, roles), baseline.n)}`,
    );
  } finally {
    await bare.stop();
  }
  const label = 'bare Fastify + pg INSERT';
  return [
    {
      probe: 'P1',
      metric: `create order, ${CONCURRENCY} conns`,
      unit: 'req/s',
      value: platform.perSecond,
      baseline: baseline.perSecond,
      baselineLabel: label,
      higherIsBetter: true,
      note: platform.errors ? `${platform.errors} errors` : undefined,
      target: { ratioAtLeast: 0.5 },
    },
    {
      probe: 'P1',
      metric: 'create order p50',
      unit: 'ms',
      value: platform.p50,
      baseline: baseline.p50,
      baselineLabel: label,
    },
    {
      probe: 'P1',
      metric: 'create order p99',
      unit: 'ms',
      value: platform.p99,
      baseline: baseline.p99,
      baselineLabel: label,
      target: { ratioAtMost: 3 },
    },
  ];
}
