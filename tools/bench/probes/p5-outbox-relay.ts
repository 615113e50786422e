import { randomUUID } from 'node:crypto';

import { Kafka, logLevel } from 'kafkajs';

import { deadLetterTopic } from '@onramp/contracts';
import { EmbeddedTransport, OUTBOX_RELAY_BATCH, TransportRecord } from '@onramp/messaging';

import { BenchContext, Row, waitQuiet } from '../bench-context';
import { sleep, summarize } from '../stats';

// Nobody consumes a dead-letter topic, so the probe's events have no side effect anywhere.
const TOPIC = deadLetterTopic('order.created');

// P5: the outbox relay alone. Rows are committed straight into the orders service's outbox; events/s
// until the relay marked all of them published, against a raw producer sending the same records in
// the same batches to the same broker (kafkajs in distributed mode, the embedded log's own publish
// otherwise). Then the consumer lag (outbox commit -> inbox row) p99 over every event of the run.
export async function probeOutboxRelay(ctx: BenchContext): Promise<Row[]> {
  const count = ctx.size(5000, 200);
  await waitQuiet(ctx);
  const records = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), key: randomUUID(), i }));
  const counts = await ctx.countWindow('P5', `outbox relay, ${count} events`, 'event');
  const t0 = Date.now();
  await ctx.db.query(
    `INSERT INTO orders.outbox (event_id, topic, key, envelope, headers)
     SELECT id, $1, k, jsonb_build_object('bench', true, 'i', i), '{}'::jsonb
     FROM unnest($2::uuid[], $3::text[], $4::int[]) AS r(id, k, i)`,
    [TOPIC, records.map((r) => r.id), records.map((r) => r.key), records.map((r) => r.i)],
  );
  const ids = records.map((r) => r.id);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await ctx.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM orders.outbox WHERE event_id = ANY($1::uuid[]) AND published_at IS NULL`,
      [ids],
    );
    if (Number(rows[0].n) === 0 || Date.now() > deadline) break;
    await sleep(50);
  }
  await counts.end(count);
  // From the rows' own timestamps (the relay marks each batch with the clock as it goes out), so how
  // often this loop looks does not count. Two figures: from the rows' commit to the last batch out,
  // which includes the relay noticing rows committed behind its back (its safety-net poll, up to
  // 100 ms: the platform's own writers wake it instead); and the relay's pace once it runs, from the
  // first batch out to the last (the rows of the later rounds over that span), which the ratio uses.
  const { rows: span } = await ctx.db.query<{ total: number | null; running: number | null }>(
    `SELECT extract(epoch FROM max(published_at) - min(created_at))::float8 AS total,
            extract(epoch FROM max(published_at) - min(published_at))::float8 AS running
     FROM orders.outbox WHERE event_id = ANY($1::uuid[])`,
    [ids],
  );
  const total = count / Math.max(span[0].total ?? (Date.now() - t0) / 1000, 0.001);
  const laterRounds = count - OUTBOX_RELAY_BATCH;
  const running =
    laterRounds >= OUTBOX_RELAY_BATCH && span[0].running
      ? laterRounds / Math.max(span[0].running, 0.001)
      : total;
  ctx.log(
    `P5: relay ${running.toFixed(0)} events/s running, ${total.toFixed(0)} events/s from commit to the last batch`,
  );

  const batch: TransportRecord[][] = [];
  for (let i = 0; i < count; i += OUTBOX_RELAY_BATCH) {
    batch.push(
      records.slice(i, i + OUTBOX_RELAY_BATCH).map((r) => ({
        topic: TOPIC,
        key: r.key,
        value: JSON.stringify({ bench: true, i: r.i }),
        headers: {},
      })),
    );
  }
  const raw = ctx.opts.distributed ? await rawKafka(ctx, batch) : await rawEmbedded(ctx, batch);
  const lag = await consumerLag(ctx);
  return [
    {
      probe: 'P5',
      metric: `outbox relay, ${count} events`,
      unit: 'events/s',
      value: running,
      baseline: count / (raw / 1000),
      baselineLabel: ctx.opts.distributed ? 'raw kafkajs producer' : 'raw publish to the embedded log',
      higherIsBetter: true,
      note: `${total.toFixed(0)}/s from commit to the last batch out`,
    },
    {
      probe: 'P5',
      metric: `consumer lag p99 (${lag.n} events)`,
      unit: 'ms',
      value: lag.p99,
      note: `p50 ${lag.p50.toFixed(0)} ms`,
    },
  ];
}

async function rawKafka(ctx: BenchContext, batches: TransportRecord[][]): Promise<number> {
  const kafka = new Kafka({
    clientId: 'bench',
    brokers: ctx.platform.env.KAFKA_BROKERS.split(','),
    logLevel: logLevel.ERROR,
  });
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  try {
    const t0 = Date.now();
    for (const b of batches) {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [{ topic: TOPIC, messages: b.map((r) => ({ key: r.key, value: r.value })) }],
      });
    }
    return Date.now() - t0;
  } finally {
    await producer.disconnect();
  }
}

async function rawEmbedded(ctx: BenchContext, batches: TransportRecord[][]): Promise<number> {
  const transport = new EmbeddedTransport({
    databaseUrl: ctx.platform.env.DATABASE_URL,
    clientId: 'bench',
    partitions: 1,
  });
  await transport.connect();
  try {
    const t0 = Date.now();
    for (const b of batches) await transport.publish(b);
    return Date.now() - t0;
  } finally {
    await transport.disconnect();
  }
}

// From an event's outbox commit to its consumer's inbox row, for every event of the run.
async function consumerLag(ctx: BenchContext): Promise<{ n: number; p50: number; p99: number }> {
  const schemas = (
    await ctx.db.query<{ s: string }>(
      `SELECT table_schema AS s FROM information_schema.tables WHERE table_name = 'outbox'`,
    )
  ).rows.map((r) => r.s);
  const outboxes = schemas.map((s) => `SELECT event_id, created_at FROM "${s}".outbox`).join(' UNION ALL ');
  const inboxes = schemas.map((s) => `SELECT event_id, handled_at FROM "${s}".inbox`).join(' UNION ALL ');
  const { rows } = await ctx.db.query<{ ms: number }>(
    `SELECT extract(epoch FROM i.handled_at - o.created_at) * 1000 AS ms FROM (${outboxes}) o JOIN (${inboxes}) i USING (event_id)`,
  );
  const s = summarize(rows.map((r) => Number(r.ms)));
  return { n: s.n, p50: s.p50, p99: s.p99 };
}
