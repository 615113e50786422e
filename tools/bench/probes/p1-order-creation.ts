import { join } from 'node:path';

import { portOf, resolvePorts } from '@onramp/platform-runner';

import { BenchContext, Row, waitQuiet } from '../bench-context';
import { openMerchant, orderBody } from '../bench-merchant';
import { forkScript } from '../child-process';
import { LoadResult, runLoad } from '../load-loop';
import { cpuSnapshot, CpuTally, formatCpuPerItem } from '../process-cpu';
import { median, summarize } from '../stats';

const CONCURRENCY = 16;
// The load before the timed window, not counted, on both sides. A platform started seconds before
// took about 10 s of this load to reach its pace (2 s windows from its first order: 171, 243, 309,
// 368, 542, 630 orders/s; its JIT compiling the request path, each pooled connection preparing its
// statements), and 3 s had left the timed window reading it still warming (docs/performance-journal.md,
// session of 2026-12-01, sixth part). Seven processes in distributed mode take longer.
const WARM_UP_S = 10;
const DISTRIBUTED_WARM_UP_S = 15;

// The timed load, in slices taken in turn with the bare server's: the machine's pace drifts within a
// minute (the bench's own sha256 reading moved 374 -> 440 ms across one P1 run, 2026-12-02 evening),
// and one 15 s window of the platform followed by one of the bare server had read the same code at
// x0.24 to x0.46 from run to run, its CPU per order at 0.26 to 0.38 ms. Side by side in time, both
// sides see the same machine (as P4's rounds do).
const ROUNDS = 5;

// P1: POST /orders/create through the gateway, 16 connections, against a bare Fastify + pg INSERT
// server on the same Postgres driven by the same load loop.
export async function probeOrderCreation(ctx: BenchContext): Promise<Row[]> {
  const durationMs = (ctx.opts.durationS ?? ctx.size(15, 2)) * 1000;
  const warmupMs = ctx.size((ctx.opts.distributed ? DISTRIBUTED_WARM_UP_S : WARM_UP_S) * 1000, 500);
  const rounds = ctx.size(ROUNDS, 2);
  const sliceMs = durationMs / rounds;
  const merchant = await openMerchant(ctx.platform, 'Bench P1');
  const load = (url: string, ms: number, headers?: Record<string, string>): Promise<LoadResult> =>
    runLoad({
      url: `${url}/orders/create`,
      headers,
      body: () => orderBody(merchant),
      concurrency: CONCURRENCY,
      durationMs: ms,
      expectStatus: 201,
    });
  const auth = { authorization: `Bearer ${merchant.token}` };
  const platformLoad = (ms: number, base = ctx.platform.urls.base): Promise<LoadResult> =>
    load(base, ms, auth);
  ctx.log(
    `P1 platform: ${CONCURRENCY} connections, ${rounds} slices of ${sliceMs / 1000} s (after ${warmupMs / 1000} s warm-up), each followed by a slice of the bare server`,
  );
  await platformLoad(warmupMs);
  await waitQuiet(ctx);

  // What the gateway costs (a note in the log, not a row: no merchant reaches a service directly):
  // the same load straight at the orders service, then through the gateway again, equally long and
  // each from a quiet platform.
  const loadLoop = { 'load loop': process.pid };
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
  const platformSlices: LoadResult[] = [];
  const bareSlices: LoadResult[] = [];
  try {
    ctx.log(`P1 baseline: bare Fastify + pg INSERT, same load`);
    await load(bare.ready.url, warmupMs);
    // through the events each order sets off (until the platform is quiet again); the bare server's
    // slices in between add only the idle platform's few statements a second
    const counts = await ctx.countWindow('P1', 'create order', 'order');
    // CPU per order of each process beside the bare server's per request: where the gap is spent.
    // Each platform slice runs until it is quiet again, so the events each order sets off count.
    const platformCpu = new CpuTally();
    const bareCpu = new CpuTally();
    const bareRoles = { ...loadLoop, 'bare server': bare.proc.pid ?? 0 };
    for (let i = 0; i < rounds; i++) {
      const before = cpuSnapshot(ctx.hostPid, loadLoop);
      const slice = await platformLoad(sliceMs);
      await waitQuiet(ctx);
      platformCpu.add(before, cpuSnapshot(ctx.hostPid, loadLoop));
      platformSlices.push(slice);
      const bareBefore = cpuSnapshot(ctx.hostPid, bareRoles);
      const bareSlice = await load(bare.ready.url, sliceMs);
      bareCpu.add(bareBefore, cpuSnapshot(ctx.hostPid, bareRoles));
      bareSlices.push(bareSlice);
      ctx.log(
        `P1 slice ${i + 1}: platform ${slice.perSecond.toFixed(0)} req/s, bare server ${bareSlice.perSecond.toFixed(0)} req/s`,
      );
    }
    const orders = platformSlices.reduce((a, s) => a + s.n, 0);
    ctx.log(`P1: CPU per order (ms): ${platformCpu.perItem(orders)}`);
    ctx.log(`P1 baseline: CPU per request (ms): ${bareCpu.perItem(bareSlices.reduce((a, s) => a + s.n, 0))}`);
    await counts.end(orders);
  } finally {
    await bare.stop();
  }
  const platform = merged(platformSlices);
  const baseline = merged(bareSlices);
  const errors = platformSlices.reduce((a, s) => a + s.errors, 0);
  const ratios = platformSlices.map((s, i) => s.perSecond / bareSlices[i].perSecond);
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
      note: [
        `median of ${rounds} slices of ${sliceMs / 1000} s, each followed by a baseline slice; ratio per pair: ${ratios.map((r) => `x${r.toFixed(2)}`).join(' ')}`,
        ...(errors
          ? [`${errors} errors, first: ${platformSlices.find((s) => s.firstError)?.firstError}`]
          : []),
      ].join('; '),
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

// Throughput as the median of the slices; latencies over all their requests together.
function merged(slices: LoadResult[]): { perSecond: number; p50: number; p99: number } {
  const all = summarize(slices.flatMap((s) => s.samples));
  return { perSecond: median(slices.map((s) => s.perSecond)), p50: all.p50, p99: all.p99 };
}
