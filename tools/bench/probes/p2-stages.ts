import { Pool } from 'pg';

import { summarize } from '../stats';

// Where P2's time goes, from the rows' own timestamps: for every credited order, the instant each
// stage of the path left its mark, and the p50 / p99 of each step between two marks. The bench's
// own clock gives the ends (credit sent, webhook received); Postgres gives the rest (same machine,
// same clock). A `created_at` or `at` set by default is its transaction's start (`now()`), so a step
// into a consumer ends when the consumer began handling the event. Where the outboxes keep
// `published_at` (the time the relay's batch went out), the hops through the transport are split
// into the relay's part and the consumer's part; an outbox that deletes what it published (the
// services' since the outbox became a queue) is split by the embedded log's append time or, on Kafka,
// by the records' own timestamps (set by the relay's producer as it sent the batch), when given.
export interface P2Stage {
  step: string;
  p50: number;
  p99: number;
  n: number;
  slowest?: number; // its median among the credits whose webhook took the longest (the slowest 1 %)
}

interface Marks {
  u: string;
  credited: number | null; // payments.bank_transactions created_at (the credit's transaction)
  confirmedOut: number | null; // payments.outbox payment.confirmed published_at
  settleIn: number | null; // settlement.settlements created_at (the payment.confirmed consumer)
  signed: number | null; // settlement.settlements signed_at (the signing pass, at its statement)
  broadcast: number | null; // settlement.settlements broadcast_at
  succeeded: number | null; // settlement.settlements updated_at once CONFIRMED (receipt seen, finalized)
  succeededOut: number | null; // settlement.outbox transfer.succeeded published_at
  ordersIn: number | null; // orders.order_status_history COMPLETED (the transfer.succeeded consumer)
  completedOut: number | null; // orders.outbox order.completed published_at
  webhooksIn: number | null; // webhooks.deliveries created_at (the order.completed consumer)
  delivered: number | null; // webhooks.deliveries delivered_at (recorded after the POST was answered)
}

const ms = (col: string): string => `(EXTRACT(EPOCH FROM ${col}) * 1000)::float8`;

async function outboxesKeepPublishedAt(db: Pool): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM information_schema.columns
     WHERE table_schema IN ('payments', 'settlement', 'orders') AND table_name = 'outbox' AND column_name = 'published_at'`,
  );
  return rows[0]?.n === 3;
}

async function hasEmbeddedLog(db: Pool): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `SELECT to_regclass('eventbus.log') IS NOT NULL AS found`,
  );
  return rows[0]?.found === true;
}

// Kafka: when each order's event of a topic was sent by its relay (the record's CreateTime), by
// `${topic}|${orderUuid}`; the first copy counts (a redelivered batch is sent again later).
export type SentTimes = Map<string, number>;

export async function p2Stages(
  db: Pool,
  orders: Array<{ uuid: string; sentAt: number; webhookAt?: number }>,
  kafkaSent?: SentTimes,
): Promise<P2Stage[]> {
  const keptPublishedAt = await outboxesKeepPublishedAt(db);
  const embeddedLog = !keptPublishedAt && (await hasEmbeddedLog(db));
  const fromKafka = !keptPublishedAt && !embeddedLog && kafkaSent !== undefined && kafkaSent.size > 0;
  const split = keptPublishedAt || embeddedLog || fromKafka;
  // An outbox that deletes what it published: when the bus is the embedded log, the event's append
  // to it (its `created_at`, the relay's transaction start) is when it went out.
  const published = (schema: string, topic: string): string =>
    keptPublishedAt
      ? `(SELECT ${ms('min(x.published_at)')} FROM "${schema}".outbox x WHERE x.key = o.u::text AND x.topic = '${topic}')`
      : embeddedLog
        ? ms(`l."${topic}"`)
        : 'NULL::float8';
  const { rows } = await db.query<Marks>(
    `WITH o AS (SELECT unnest($1::uuid[]) AS u)${
      embeddedLog
        ? `, l AS (
       SELECT key,
         min(created_at) FILTER (WHERE topic = 'payment.confirmed') AS "payment.confirmed",
         min(created_at) FILTER (WHERE topic = 'transfer.succeeded') AS "transfer.succeeded",
         min(created_at) FILTER (WHERE topic = 'order.completed') AS "order.completed"
       FROM eventbus.log
       WHERE topic IN ('payment.confirmed', 'transfer.succeeded', 'order.completed') AND key IN (SELECT u::text FROM o)
       GROUP BY key)`
        : ''
    }
     SELECT o.u::text AS u,
       (SELECT ${ms('min(b.created_at)')} FROM payments.bank_transactions b WHERE b.matched_order_uuid = o.u) AS "credited",
       ${published('payments', 'payment.confirmed')} AS "confirmedOut",
       ${ms('s.created_at')} AS "settleIn",
       ${ms('s.signed_at')} AS "signed",
       ${ms('s.broadcast_at')} AS "broadcast",
       CASE WHEN s.state = 'CONFIRMED' THEN ${ms('s.updated_at')} END AS "succeeded",
       ${published('settlement', 'transfer.succeeded')} AS "succeededOut",
       (SELECT ${ms('min(h.at)')} FROM orders.order_status_history h
        WHERE h.order_uuid = o.u AND h.to_status = 'COMPLETED') AS "ordersIn",
       ${published('orders', 'order.completed')} AS "completedOut",
       ${ms('d.created_at')} AS "webhooksIn",
       ${ms('d.delivered_at')} AS "delivered"
     FROM o
     LEFT JOIN settlement.settlements s ON s.order_uuid = o.u
     LEFT JOIN webhooks.deliveries d ON d.order_uuid = o.u AND d.event_type = 'order.completed'${
       embeddedLog
         ? `
     LEFT JOIN l ON l.key = o.u::text`
         : ''
     }`,
    [orders.map((o) => o.uuid)],
  );
  const byUuid = new Map(rows.map((r) => [r.u, r]));
  if (fromKafka) {
    for (const r of rows) {
      r.confirmedOut = kafkaSent.get(`payment.confirmed|${r.u}`) ?? null;
      r.succeededOut = kafkaSent.get(`transfer.succeeded|${r.u}`) ?? null;
      r.completedOut = kafkaSent.get(`order.completed|${r.u}`) ?? null;
    }
  }
  type Mark = keyof Omit<Marks, 'u'> | 'sent' | 'received';
  const hop = (name: string, from: Mark, out: Mark, to: Mark, relay: string, consumer: string) =>
    split
      ? ([
          [`-> published to the transport (${relay} relay)`, from, out],
          [`-> ${consumer}`, out, to],
        ] as Array<[string, Mark, Mark]>)
      : ([[`-> ${consumer}, through the transport (${name})`, from, to]] as Array<[string, Mark, Mark]>);
  const steps: Array<[string, Mark, Mark]> = [
    ['credit sent -> credit committed (transaction start)', 'sent', 'credited'],
    ...hop(
      'payment.confirmed',
      'credited',
      'confirmedOut',
      'settleIn',
      'payment-ingest',
      'chain-settlement consumer (settlement row)',
    ),
    ['-> transfer signed and stored', 'settleIn', 'signed'],
    ['-> transfer broadcast', 'signed', 'broadcast'],
    ['-> receipt seen, settlement CONFIRMED (transfer.succeeded)', 'broadcast', 'succeeded'],
    ...hop(
      'transfer.succeeded',
      'succeeded',
      'succeededOut',
      'ordersIn',
      'chain-settlement',
      'orders consumer (order COMPLETED)',
    ),
    ...hop(
      'order.completed',
      'ordersIn',
      'completedOut',
      'webhooksIn',
      'orders',
      'webhook-dispatch consumer (delivery row)',
    ),
    // The merchant's receipt ends the probe; the dispatcher records the answer after it.
    ['-> webhook received by the merchant', 'webhooksIn', 'received'],
    ['   (after the probe: delivery recorded, POST answered)', 'received', 'delivered'],
    ['credit sent -> webhook received (the probe)', 'sent', 'received'],
  ];
  // The p99 is made by a few credits: which steps were long for them says what a tail is made of (a
  // stall of one stage, or every stage a little slower).
  const total = (o: (typeof orders)[number]): number | undefined =>
    o.webhookAt === undefined ? undefined : o.webhookAt - o.sentAt;
  const cut = summarize(orders.flatMap((o) => total(o) ?? [])).p99;
  const slowest = new Set(orders.filter((o) => (total(o) ?? -1) >= cut).map((o) => o.uuid));
  return steps.map(([step, from, to]) => {
    const deltas: number[] = [];
    const slowDeltas: number[] = [];
    for (const o of orders) {
      const m = byUuid.get(o.uuid);
      if (!m) continue;
      const at = (k: Mark): number | null | undefined =>
        k === 'sent' ? o.sentAt : k === 'received' ? o.webhookAt : m[k];
      const a = at(from);
      const b = at(to);
      if (a == null || b == null) continue;
      deltas.push(b - a);
      if (slowest.has(o.uuid)) slowDeltas.push(b - a);
    }
    const s = summarize(deltas);
    const slow = slowDeltas.length ? summarize(slowDeltas).p50 : undefined;
    return { step, p50: s.p50, p99: s.p99, n: deltas.length, slowest: slow };
  });
}

export function formatStages(stages: P2Stage[]): string {
  const width = Math.max(...stages.map((s) => s.step.length));
  return stages
    .map(
      (s) =>
        `  ${s.step.padEnd(width)}  p50 ${s.p50.toFixed(0).padStart(6)} ms  p99 ${s.p99.toFixed(0).padStart(6)} ms  (n=${s.n})` +
        (s.slowest === undefined ? '' : `  slowest 1 %: ${s.slowest.toFixed(0).padStart(5)} ms`),
    )
    .join('\n');
}
