import { readTopics } from '@onramp/testing';

import { BenchContext, Row, settleDatabase, waitQuiet } from '../bench-context';
import { BenchMerchant, createOrders, credit, openMerchant, webhookTimes } from '../bench-merchant';
import { treeRssMb } from '../child-process';
import { measureFloor } from '../floor';
import { cpuShares, cpuSnapshot, formatCpu } from '../process-cpu';
import { sleep, summarize } from '../stats';
import { formatStages, P2Stage, p2Stages, SentTimes } from './p2-stages';

export interface P2Result {
  rows: Row[];
  rssUnderLoadMb: number;
  stages: P2Stage[];
  cpu: Array<{ role: string; percent: number }>;
}

// P2: sandbox credits paced at a fixed rate, each timed from the moment it is sent to the moment
// its order's signed webhook reaches the merchant's endpoint; beside the floor (floor.ts).
export async function probeCreditToWebhook(ctx: BenchContext): Promise<P2Result> {
  const rate = ctx.opts.p2Rate ?? ctx.size(50, 10);
  const seconds = ctx.opts.durationS ?? ctx.size(60, 3);
  const count = Math.round(rate * seconds);
  const merchant = await openMerchant(ctx.platform, 'Bench P2');
  ctx.log(`P2: creating ${count} orders to pay`);
  const orders = await createOrders(merchant, count);
  // A warm-up at the same pace, not counted, as P1 and P4 have: in a run of P2 alone, the first
  // payouts of each process (first queries, first sends to the node and the broker, compilation) held
  // up the first seconds: p50 674 ms in the first 5 s, then 95-150 ms (distributed, --only P2).
  // Distributed, longer: the bench's Kafka broker is a JVM started a minute before, and after 5 s of
  // warm-up the p50 of each 5 s of the full run still fell from 356 to 137-179 ms over the minute,
  // the broker at 32 % of a core; after 30 s it was flat from the first window (127-212 ms), the
  // broker at 26 % (docs/performance-journal.md, session of 2026-12-01). A deployed broker is warm.
  const warm = await openMerchant(ctx.platform, 'Bench P2 warm-up');
  const warmUpS = ctx.opts.distributed ? DISTRIBUTED_WARM_UP_S : WARM_UP_S;
  const warmOrders = await createOrders(warm, rate * ctx.size(warmUpS, 1));
  await waitQuiet(ctx);
  ctx.log(`P2: warm-up, ${warmOrders.length} credits paced at ${rate}/s (not counted)`);
  await paceCredits(ctx, warm, warmOrders, rate);
  await waitQuiet(ctx);
  // Nor beside the vacuuming Postgres owes for what the orders, the warm-up and an earlier probe wrote
  // (P4 settles for the same reason): the work is real, but it is theirs, not these credits'.
  ctx.log(`P2: ${await settleDatabase(ctx)}`);

  ctx.log(`P2: ${count} credits paced at ${rate}/s`);
  let rss = 0;
  const sampler = setInterval(() => (rss = Math.max(rss, treeRssMb(ctx.hostPid, 'node'))), 1000);
  const counts = await ctx.countWindow('P2', `credit -> webhook @${rate}/s`, 'payout');
  const cpuBefore = cpuSnapshot(ctx.hostPid);
  const { sentAt, failures } = await paceCredits(ctx, merchant, orders, rate);
  clearInterval(sampler);
  const cpu = cpuShares(cpuBefore, cpuSnapshot(ctx.hostPid));
  ctx.log(`P2: CPU from the first credit to the last webhook (share of one core): ${formatCpu(cpu)}`);
  const times = webhookTimes(merchant);
  const kafkaSent = ctx.opts.distributed ? await sentOnKafka(ctx, new Set(sentAt.keys())) : undefined;
  const stages = await p2Stages(
    ctx.db,
    orders.map((o) => ({ uuid: o.uuid, sentAt: sentAt.get(o.uuid)!, webhookAt: times.get(o.uuid) })),
    kafkaSent,
  ).catch((err: Error) => {
    ctx.log(`P2: no stage breakdown (${err.message})`);
    return [];
  });
  if (stages.length) ctx.log(`P2: where the time goes (rows' own timestamps)\n${formatStages(stages)}`);
  const latencies = orders.flatMap((o) =>
    times.has(o.uuid) ? [times.get(o.uuid)! - sentAt.get(o.uuid)!] : [],
  );
  ctx.log(`P2: by ${WINDOW_S} s of sending, p50 / p99 / max ms: ${byWindow(orders, sentAt, times)}`);
  if (ctx.opts.countStatements) await waitQuiet(ctx); // the tail of the last payouts' events
  await counts.end(latencies.length);
  const missing = count - latencies.length;
  if (failures.length) ctx.log(`P2: ${failures.length} credits failed, first: ${failures[0]}`);

  ctx.log('P2 baseline: floor (INSERT + transfer mined + POST)');
  const floor = await measureFloor(ctx.db, ctx.platform.env, ctx.size(30, 5));
  const lat = summarize(latencies);
  const label = 'floor: INSERT + transfer + POST';
  const note = missing ? `${missing} of ${count} webhooks missing` : undefined;
  return {
    rssUnderLoadMb: rss,
    stages,
    cpu,
    rows: [
      {
        probe: 'P2',
        metric: `credit -> webhook p50 @${rate}/s`,
        unit: 'ms',
        value: lat.p50,
        baseline: floor.p50,
        baselineLabel: label,
        note,
        target: { overBaselineAtMost: 100 },
      },
      {
        probe: 'P2',
        metric: `credit -> webhook p99 @${rate}/s`,
        unit: 'ms',
        value: lat.p99,
        baseline: floor.p99,
        baselineLabel: label,
        target: { overBaselineAtMost: 400 },
      },
      {
        probe: 'P2',
        metric: `credit -> webhook max @${rate}/s`,
        unit: 'ms',
        value: lat.max,
        baseline: floor.max,
        baselineLabel: label,
      },
    ],
  };
}

// Distributed mode: when each relay sent each order's event (the record's timestamp), so a hop over
// Kafka splits into the relay's part and the broker's and consumer's part.
async function sentOnKafka(ctx: BenchContext, uuids: Set<string>): Promise<SentTimes | undefined> {
  const topics = ['payment.confirmed', 'transfer.succeeded', 'order.completed'];
  try {
    const sent: SentTimes = new Map();
    for (const r of await readTopics(ctx.platform.env.KAFKA_BROKERS.split(','), topics)) {
      if (!uuids.has(r.key)) continue;
      const k = `${r.topic}|${r.key}`;
      sent.set(k, Math.min(sent.get(k) ?? Infinity, r.timestamp));
    }
    return sent;
  } catch (err) {
    ctx.log(`P2: Kafka hops not split (${(err as Error).message})`);
    return undefined;
  }
}

const WINDOW_S = 5;

// The latencies of the credits sent in each window of the run: whether a p99 is a steady tail or a
// few stalls of the machine (one window far above the others).
function byWindow(
  orders: ReadonlyArray<{ uuid: string }>,
  sentAt: ReadonlyMap<string, number>,
  times: ReadonlyMap<string, number>,
): string {
  const start = Math.min(...sentAt.values());
  const windows = new Map<number, number[]>();
  for (const o of orders) {
    const sent = sentAt.get(o.uuid);
    const got = times.get(o.uuid);
    if (sent === undefined || got === undefined) continue;
    const w = Math.floor((sent - start) / (WINDOW_S * 1000));
    windows.set(w, [...(windows.get(w) ?? []), got - sent]);
  }
  return [...windows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, l]) => {
      const s = summarize(l);
      return `${s.p50.toFixed(0)}/${s.p99.toFixed(0)}/${s.max.toFixed(0)}`;
    })
    .join(' ');
}

const WARM_UP_S = 5;
const DISTRIBUTED_WARM_UP_S = 20;

// Sends a credit for each order at `rate` per second, then waits until every webhook arrived (or a
// deadline passed): when each credit was sent, and the credits the platform refused.
async function paceCredits(
  ctx: BenchContext,
  merchant: BenchMerchant,
  orders: ReadonlyArray<{ uuid: string; reference: string }>,
  rate: number,
): Promise<{ sentAt: Map<string, number>; failures: string[] }> {
  const sentAt = new Map<string, number>();
  const failures: string[] = [];
  const inFlight: Promise<void>[] = [];
  const t0 = Date.now();
  let lastReport = t0;
  for (let i = 0; i < orders.length; i++) {
    const due = t0 + (i * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    const order = orders[i];
    sentAt.set(order.uuid, Date.now());
    inFlight.push(
      credit(ctx.platform, merchant, order.reference).catch((err: Error) => void failures.push(err.message)),
    );
    if (Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      ctx.log(`P2: ${i + 1}/${orders.length} credits sent, ${webhookTimes(merchant).size} webhooks in`);
    }
  }
  await Promise.all(inFlight);
  const deadline = Date.now() + ctx.size(90_000, 30_000);
  while (webhookTimes(merchant).size < orders.length - failures.length && Date.now() < deadline)
    await sleep(100);
  return { sentAt, failures };
}
