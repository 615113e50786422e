import { readTopics } from '@onramp/testing';

import { BenchContext, Row, waitQuiet } from '../bench-context';
import { createOrders, credit, openMerchant, webhookTimes } from '../bench-merchant';
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
  const rate = ctx.size(50, 10);
  const seconds = ctx.opts.durationS ?? ctx.size(60, 3);
  const count = Math.round(rate * seconds);
  const merchant = await openMerchant(ctx.platform, 'Bench P2');
  ctx.log(`P2: creating ${count} orders to pay`);
  const orders = await createOrders(merchant, count);
  await waitQuiet(ctx);

  ctx.log(`P2: ${count} credits paced at ${rate}/s`);
  const sentAt = new Map<string, number>();
  const failures: string[] = [];
  let rss = 0;
  const sampler = setInterval(() => (rss = Math.max(rss, treeRssMb(ctx.hostPid, 'node'))), 1000);
  const inFlight: Promise<void>[] = [];
  const counts = await ctx.countWindow('P2', `credit -> webhook @${rate}/s`, 'payout');
  const cpuBefore = cpuSnapshot(ctx.hostPid);
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
      ctx.log(`P2: ${i + 1}/${count} credits sent, ${webhookTimes(merchant).size} webhooks in`);
    }
  }
  await Promise.all(inFlight);
  const deadline = Date.now() + ctx.size(90_000, 30_000);
  while (webhookTimes(merchant).size < count - failures.length && Date.now() < deadline) await sleep(100);
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
      },
      {
        probe: 'P2',
        metric: `credit -> webhook p99 @${rate}/s`,
        unit: 'ms',
        value: lat.p99,
        baseline: floor.p99,
        baselineLabel: label,
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
