import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from 'pg';

import { localProvider } from '@onramp/chain';
import { EventHeaders, Topics } from '@onramp/contracts';
import { readTopics, waitFor } from '@onramp/testing';

import { chaosEnv } from './chaos-env';

// What the test watches while faults are injected: the books (read directly, as an operator would)
// and the chain head. A fresh connection per read, so a Postgres restart costs one failed poll.
async function query<T>(sql: string, params: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: chaosEnv.databaseUrl(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function orderStatuses(orderUuids: string[]): Promise<Map<string, string>> {
  const rows = await query<{ uuid: string; status: string }>(
    `SELECT uuid, status FROM orders.orders WHERE uuid = ANY($1::uuid[])`,
    [orderUuids],
  );
  return new Map(rows.map((r) => [r.uuid, r.status]));
}

export async function settlementStates(orderUuids: string[]): Promise<Map<string, string>> {
  const rows = await query<{ order_uuid: string; state: string }>(
    `SELECT order_uuid, state FROM settlement.settlements WHERE order_uuid = ANY($1::uuid[])`,
    [orderUuids],
  );
  return new Map(rows.map((r) => [r.order_uuid, r.state]));
}

export interface SettlementRow {
  order_uuid: string;
  state: string;
  signer_address: string | null;
  nonce: string | null;
  token_base_units: string | null;
  last_error: string | null;
  attempts: number;
  transactions: number; // signed for it (more than one: a stuck one was replaced)
}

export async function settlementRows(orderUuids: string[]): Promise<SettlementRow[]> {
  return query<SettlementRow>(
    `SELECT s.order_uuid, s.state, s.signer_address, s.nonce::text, s.token_base_units::text, s.last_error,
            s.attempts, (SELECT count(*)::int FROM settlement.settlement_transactions t
                         WHERE t.order_uuid = s.order_uuid) AS transactions
     FROM settlement.settlements s WHERE s.order_uuid = ANY($1::uuid[])`,
    [orderUuids],
  );
}

export async function webhookDeliveryStates(orderUuids: string[]): Promise<Record<string, number>> {
  const rows = await query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM webhooks.deliveries WHERE order_uuid = ANY($1::uuid[]) GROUP BY status`,
    [orderUuids],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export function countBy(states: Map<string, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of states.values()) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

// Effects that must exist once per order whatever was redelivered: the terminal order event, the
// transfer outcome event, the payment event, the webhook delivery. Counts orders that have more.
// Events are read from the topics (the outbox deletes what it published) and counted by event id: a
// relay that died between publishing and deleting sends the same event again, which consumers
// absorb; a second event id for one order is a second effect.
export async function duplicateEffects(): Promise<Record<string, number>> {
  const published = await readTopics(chaosEnv.kafkaBrokers(), [
    Topics.OrderCompleted,
    Topics.OrderFailed,
    Topics.TransferSucceeded,
    Topics.TransferFailed,
    Topics.PaymentConfirmed,
    Topics.PaymentFailed,
  ]);
  const twice = (topics: string[]): number => {
    const ids = new Map<string, Set<string>>();
    for (const r of published.filter((e) => topics.includes(e.topic)))
      ids.set(r.key, (ids.get(r.key) ?? new Set()).add(r.headers[EventHeaders.Id] ?? r.value));
    return [...ids.values()].filter((set) => set.size > 1).length;
  };
  const [row] = await query<{ n: number }>(
    `SELECT (SELECT count(*) FROM (SELECT order_uuid FROM webhooks.deliveries GROUP BY order_uuid HAVING count(*) > 1) d)::int AS n`,
    [],
  );
  return {
    orderEvents: twice([Topics.OrderCompleted, Topics.OrderFailed]),
    transferEvents: twice([Topics.TransferSucceeded, Topics.TransferFailed]),
    paymentEvents: twice([Topics.PaymentConfirmed, Topics.PaymentFailed]),
    webhookDeliveries: row.n,
  };
}

const TERMINAL = new Set(['COMPLETED', 'FAILED']);

export async function waitForTerminalOrders(
  orderUuids: string[],
  timeoutMs = 120_000,
): Promise<Map<string, string>> {
  try {
    return await waitFor(
      async () => {
        const statuses = await orderStatuses(orderUuids);
        return orderUuids.every((u) => TERMINAL.has(statuses.get(u) ?? '')) ? statuses : undefined;
      },
      { timeoutMs, intervalMs: 500, description: `${orderUuids.length} orders COMPLETED or FAILED` },
    );
  } catch (err) {
    // A CI run keeps only what the test prints: say where the flow stopped before failing.
    process.stderr.write(`\n[chaos] stuck flow:\n${await flowDiagnosis(orderUuids)}\n`);
    throw err;
  }
}

// Orders and settlements by state, unpublished outbox events per schema, and the last warnings
// and errors each app logged.
export async function flowDiagnosis(orderUuids: string[]): Promise<string> {
  const lines: string[] = [];
  const safely = async (label: string, read: () => Promise<unknown>) => {
    try {
      lines.push(`${label}: ${JSON.stringify(await read())}`);
    } catch (err) {
      lines.push(`${label}: unreadable (${(err as Error).message})`);
    }
  };
  await safely('orders', async () => countBy(await orderStatuses(orderUuids)));
  await safely('settlements', async () => countBy(await settlementStates(orderUuids)));
  for (const schema of ['orders', 'payments', 'kyc', 'settlement', 'webhooks', 'auth']) {
    await safely(`${schema}.outbox unpublished`, async () => {
      const [row] = await query<{ n: string }>(
        `SELECT count(*) AS n FROM "${schema}"."outbox"`, // the relay deletes what it published
        [],
      );
      return Number(row?.n ?? 0);
    });
  }
  const logDir = process.env.CHAOS_LOG_DIR;
  if (logDir) {
    for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) {
      const noteworthy = readFileSync(join(logDir, file), 'utf8')
        .split('\n')
        .filter((l) => /\b(WARN|ERROR|warn|error)\b/.test(l));
      lines.push(`--- ${file}: last of ${noteworthy.length} warnings/errors`);
      lines.push(...noteworthy.slice(-15).map((l) => l.slice(0, 400)));
    }
  }
  return lines.join('\n');
}

export async function chainHead(): Promise<number> {
  const provider = localProvider(chaosEnv.rpcUrl());
  try {
    return await provider.getBlockNumber();
  } finally {
    provider.destroy();
  }
}
