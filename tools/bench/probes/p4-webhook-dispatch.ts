import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { signingKeysOf, webhookHeaders } from '@onramp/webhooks-domain';
import { WEBHOOK_IN_FLIGHT_DEFAULTS } from '@onramp/webhooks-feature';

import { BenchContext, Row, settleDatabase, waitQuiet } from '../bench-context';
import { BenchMerchant, openMerchant } from '../bench-merchant';
import { forkScript } from '../child-process';
import { cpuSnapshot, formatCpuPerItem } from '../process-cpu';
import { LoadResult, runLoad } from '../load-loop';
import type { LoadRequest } from '../load-tool';
import { median, sleep } from '../stats';
import { roundsWithMerchantsWaiting, WaitingRounds } from './p4-waiting-merchants';

const HEALTHY = 4;
// Five pairs, not three: over 21 pairs of seven runs (2026-12-01 to 12-02) single pairs read x0.75-1.47
// around a median of x1.00, and a median of three landed under x0.9 in one run of four.
const PAIRS = 5;

// P4: the dispatcher alone. Deliveries are queued straight into the webhook service's table (as its
// event handler would), for four healthy merchants; after a first such round that is not counted,
// deliveries/s until all arrived (the median of the rounds), against the same load loop posting the
// same bodies straight at the same receivers (the median of slices, one after each round). Then
// rounds while a fifth merchant's endpoint hangs with as many deliveries queued, each between two
// without: the healthy ones' slowdown.
export async function probeWebhookDispatch(ctx: BenchContext): Promise<Row[]> {
  const perMerchant = ctx.size(1000, 10);
  const merchants: BenchMerchant[] = [];
  for (let i = 0; i < HEALTHY; i++) merchants.push(await openMerchant(ctx.platform, `Bench P4 ${i + 1}`));
  const hanging = await openMerchant(ctx.platform, 'Bench P4 hanging');
  hanging.receiver.answer = 'hang';
  // Not before earlier probes' payouts and webhooks are through: their deliveries would share the
  // dispatcher's slots and the CPU with these, and be counted against the dispatcher.
  const quiet = await waitQuiet(ctx, ctx.size(300_000, 60_000));
  const note = quiet ? undefined : 'earlier probes still draining';
  // A first round, not counted: the first deliveries of a process that has sent none (under
  // `--only P4`) ran at a quarter of the pace of the next ones, whatever the load (docs/performance-journal.md,
  // webhook dispatch, session of 2026-11-23 night). A full run has warmed it with P2 and P3 already.
  const warm = await deliver(ctx, merchants, perMerchant);
  ctx.log(`P4: warm-up ${warm.toFixed(0)} deliveries/s (not counted)`);

  const concurrency =
    HEALTHY *
    Number(ctx.platform.env.WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT ?? WEBHOOK_IN_FLIGHT_DEFAULTS.perMerchant);
  const load = {
    urls: merchants.map((m) => m.receiverUrl),
    concurrency,
    expectStatus: 200,
    headers: deliveryShapedHeaders(),
  };
  const bodies = merchants.map((m) => webhookBody(m.merchantId, '{uuid}'));
  // The baseline: a load tool of its own process, as the dispatcher is (load-tool.ts says why), run
  // for a slice after each round without a hanging endpoint, from a settled database like the round.
  // One 5 s run after all the rounds had moved between 9,000 and 17,500 /s from run to run while the
  // rounds moved far less: the machine's pace drifts within a minute, and a baseline taken beside
  // each round drifts with it (docs/performance-journal.md, 2026-12-02 morning).
  const direct = await openDirectBaseline(ctx, { ...load, bodies }, () => {
    for (const m of merchants) m.receiver.forget();
  });
  // The receivers answer in this process: its CPU is the merchants' side, the same in the baseline.
  const receivers = { 'bench (receivers)': process.pid };
  let healthy: number;
  let ratios: number[];
  let waiting: WaitingRounds;
  try {
    await direct.warmUp();
    // Nor before Postgres has done the vacuuming and flushing their writes left it.
    ctx.log(`P4: ${await settleDatabase(ctx)}`);

    const counts = await ctx.countWindow('P4', `${HEALTHY} healthy merchants`, 'delivery');
    const cpuBefore = cpuSnapshot(ctx.hostPid, receivers);
    const first = await deliver(ctx, merchants, perMerchant);
    if (ctx.opts.countStatements) await waitQuiet(ctx); // the last deliveries' bookkeeping
    const cpuAfter = cpuSnapshot(ctx.hostPid, receivers);
    await counts.end(perMerchant * HEALTHY);
    ctx.log(`P4: ${first.toFixed(0)} deliveries/s for ${HEALTHY} healthy merchants`);
    // Including the rows' queueing and the last recordings (ticks of 10 ms, so a rough figure).
    ctx.log(
      `P4: CPU per delivery (ms, from the queueing to the last arrival): ${formatCpuPerItem(cpuBefore, cpuAfter, perMerchant * HEALTHY)}`,
    );
    await direct.slice();

    // The slowdown, in pairs of rounds: one while the fifth endpoint hangs, then one without. A round
    // lasts a second or two, about what one stall of a busy 2-core machine costs, so a single pair
    // moved between x0.3 and x1.8 from run to run whatever the code (docs/performance-journal.md, session of
    // 2026-11-28); the median of the pairs' ratios is what the row reports, every pair in its note.
    // Every round starts as the first did, from a settled database: the rounds last about a second, and
    // a round begun while Postgres still vacuumed what the bench itself had just written (the hanging
    // merchant's rows given up) ran 20-30 % slower than one begun after a pause.
    const alone = [first];
    const hung: number[] = [];
    for (let pair = 0; pair < ctx.size(PAIRS, 1); pair++) {
      await settleDatabase(ctx);
      await hangEndpoint(ctx, hanging, perMerchant);
      hung.push(await deliver(ctx, merchants, perMerchant));
      const held = hanging.receiver.log.filter(
        (d) => d.answered === 'hung' && d.closedAt === undefined,
      ).length;
      ctx.log(`P4: ${hung[pair].toFixed(0)} deliveries/s while one endpoint hangs (${held} requests held)`);
      await releaseHanging(ctx, hanging);
      await settleDatabase(ctx);
      alone.push(await deliver(ctx, merchants, perMerchant));
      ctx.log(`P4: ${alone[pair + 1].toFixed(0)} deliveries/s, no endpoint hanging`);
      await direct.slice();
    }
    // each hanging round against the mean of the rounds without a hanging endpoint on either side of it
    ratios = hung.map((h, i) => h / ((alone[i] + alone[i + 1]) / 2));
    healthy = median(alone);
    waiting = await roundsWithMerchantsWaiting(
      ctx,
      () => deliver(ctx, merchants, perMerchant),
      alone[alone.length - 1],
      ctx.size(3, 1),
    );
  } finally {
    await direct.stop();
  }
  const slowdown = median(ratios);
  const baseline = median(direct.slices.map((r) => r.perSecond));

  // The same loop in the bench's own event loop, beside its receivers: reported in the note only.
  let turn = 0;
  const inProcess = await runLoad({
    ...load,
    durationMs: ctx.size(5000, 1000),
    url: load.urls[0],
    body: () => bodies[turn++ % HEALTHY].replace('{uuid}', randomUUID()),
  });
  return [
    {
      probe: 'P4',
      metric: 'webhook deliveries/s',
      unit: '/s',
      value: healthy,
      baseline,
      baselineLabel: `direct POSTs, ${concurrency} conns, own process`,
      higherIsBetter: true,
      target: { ratioAtLeast: 0.5 },
      note:
        [
          note,
          `median of ${direct.slices.length} rounds, each followed by a baseline slice`,
          `the loop inside the receivers' process: ${inProcess.perSecond.toFixed(0)} /s`,
        ]
          .filter(Boolean)
          .join('; ') || undefined,
    },
    {
      probe: 'P4',
      metric: 'deliveries/s, one endpoint hanging',
      unit: '/s',
      value: healthy * slowdown,
      baseline: healthy,
      baselineLabel: 'same, no endpoint hanging',
      higherIsBetter: true,
      // slowed by less than 10 %
      target: { ratioAtLeast: 0.9 },
      note: `median of ${ratios.length} pairs: ${ratios.map((r) => `x${r.toFixed(2)}`).join(' ')}`,
    },
    {
      probe: 'P4',
      metric: 'deliveries/s, merchants waiting on retries',
      unit: '/s',
      value: healthy * waiting.slowdown,
      baseline: healthy,
      baselineLabel: 'same, none waiting',
      higherIsBetter: true,
      note:
        `${waiting.merchants} other merchants with ${waiting.retriesEach} retries each due in an hour; ` +
        `median of ${waiting.ratios.length} pairs: ${waiting.ratios.map((r) => `x${r.toFixed(2)}`).join(' ')}`,
    },
  ];
}

// The direct POSTs of the baseline, from a load tool of its own process kept for the whole probe:
// a first run not counted (its first requests run cold, as the dispatcher's first round did), then a
// slice of 1.5 s whenever asked, each from a settled database, the first one's CPU per POST logged.
// After each run the receivers forget what they logged of it (`forget`): the next round would
// otherwise run beside a heap grown by some 20,000 entries a slice.
async function openDirectBaseline(
  ctx: BenchContext,
  load: Pick<LoadRequest, 'urls' | 'concurrency' | 'expectStatus' | 'headers' | 'bodies'>,
  forget: () => void,
): Promise<{ slices: LoadResult[]; warmUp(): Promise<void>; slice(): Promise<void>; stop(): Promise<void> }> {
  const tool = await forkScript<{ type: 'ready' }>('load-tool.ts', [], {
    logFile: join(ctx.logDir, 'load-tool.log'),
  });
  const run = async (durationMs: number): Promise<LoadResult> => {
    const answer = await tool.call<{ id: number; result?: LoadResult; error?: string }>({
      type: 'load',
      ...load,
      durationMs,
    });
    forget();
    if (!answer.result) throw new Error(`P4 load tool: ${answer.error}`);
    return answer.result;
  };
  const slices: LoadResult[] = [];
  return {
    slices,
    warmUp: async () => {
      await run(ctx.size(1000, 200));
    },
    slice: async () => {
      await settleDatabase(ctx);
      const roles = { 'bench (receivers)': process.pid, 'load tool': tool.proc.pid ?? -1 };
      const before = cpuSnapshot(ctx.hostPid, roles);
      const durationMs = ctx.size(1500, 500);
      const result = await run(durationMs);
      if (slices.length === 0) {
        const requests = Math.max(1, Math.round(result.perSecond * (durationMs / 1000)));
        const cpu = formatCpuPerItem(before, cpuSnapshot(ctx.hostPid, roles), requests);
        ctx.log(`P4: CPU per direct POST (ms): ${cpu}`);
      }
      slices.push(result);
      ctx.log(`P4: ${result.perSecond.toFixed(0)} direct POSTs/s (baseline slice ${slices.length})`);
    },
    stop: () => tool.stop(),
  };
}

// The fifth merchant's endpoint takes requests and never answers, and it has as many deliveries
// queued as each healthy merchant, whose sends fill its slots before the round starts. Its URL is set
// again first: the last release's 410s disabled the endpoint, and a disabled endpoint's deliveries
// are never claimed, so without it only the first pair would have had an endpoint hanging.
async function hangEndpoint(ctx: BenchContext, hanging: BenchMerchant, count: number): Promise<void> {
  hanging.receiver.answer = 'hang';
  await hanging.client.setWebhook(hanging.receiverUrl);
  await queue(ctx, hanging, count);
  await sleep(500);
}

// The hanging endpoint answers 410 from now on (which ends its deliveries' retries and disables it),
// its deliveries not claimed yet are given up, and the requests it held are closed; then, until its
// process has sent what it had claimed for it, the next round waits.
async function releaseHanging(ctx: BenchContext, hanging: BenchMerchant): Promise<void> {
  hanging.receiver.answer = 'gone';
  await ctx.db.query(
    `UPDATE webhooks.deliveries SET status = 'DEAD' WHERE merchant_id = $1 AND status = 'PENDING'`,
    [hanging.merchantId],
  );
  hanging.receiver.releaseHung();
  const deadline = Date.now() + 30_000;
  let seen = -1;
  while (hanging.receiver.log.length !== seen && Date.now() < deadline) {
    seen = hanging.receiver.log.length;
    await sleep(200);
  }
}

// The headers a delivery carries besides the body's (its two signatures, ids, timestamps, user
// agent), with values of the same lengths: the direct POSTs are the same requests on the wire, so the
// receivers parse as much for them as for a delivery. Computed once: what a sender spends signing is
// the dispatcher's work, not the wire's.
function deliveryShapedHeaders(): Record<string, string> {
  const { 'Content-Type': _type, ...rest } = webhookHeaders({
    keys: signingKeysOf('whsec_bench'),
    eventId: randomUUID(),
    body: webhookBody(randomUUID(), randomUUID()),
    timestampSeconds: Math.floor(Date.now() / 1000),
  });
  return rest;
}

function webhookBody(merchantId: string, orderUuid: string): string {
  return JSON.stringify({
    event: 'order.completed',
    orderUuid,
    merchantId,
    status: 'COMPLETED',
    bench: true,
  });
}

async function queue(ctx: BenchContext, m: BenchMerchant, count: number): Promise<void> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await ctx.db.query(
    `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, next_attempt_at)
     SELECT gen_random_uuid(), gen_random_uuid(), $1, 'order.completed', o, $2::text || o::text || '"}', 'PENDING', now()
     FROM unnest($3::uuid[]) AS o`,
    [m.merchantId, `{"event":"order.completed","bench":true,"orderUuid":"`, ids],
  );
}

// Queues `perMerchant` deliveries for each merchant in one statement, then waits until every one
// arrived: deliveries/s from the first arrival to the last. The rows are written behind the
// dispatcher's back (no event wakes it), so the time until its safety-net poll finds them is not
// the dispatcher's throughput and stays out.
async function deliver(ctx: BenchContext, merchants: BenchMerchant[], perMerchant: number): Promise<number> {
  const before = merchants.map((m) => m.receiver.acceptedCount());
  await Promise.all(merchants.map((m) => queue(ctx, m, perMerchant)));
  const arrived = (): number => merchants.reduce((n, m, i) => n + m.receiver.acceptedCount() - before[i], 0);
  const total = perMerchant * merchants.length;
  const deadline = Date.now() + ctx.size(120_000, 30_000);
  while (arrived() < total && Date.now() < deadline) await sleep(20);
  const times = merchants.flatMap((m, i) =>
    m.receiver
      .accepted()
      .slice(before[i])
      .map((d) => d.at),
  );
  const first = Math.min(...times);
  const last = Math.max(...times);
  return (times.length - 1) / (Math.max(1, last - first) / 1000);
}
