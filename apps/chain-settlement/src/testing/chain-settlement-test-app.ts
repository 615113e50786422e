import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';

import { PaymentConfirmedV1 } from '@onramp/contracts';
import {
  ChainSettlementModule,
  loadChainSettlementConfig,
  SETTLEMENT_SCHEMA,
  SettlementWorker,
  SignerLeases,
} from '@onramp/settlement-feature';
import { createDatabase, startServiceTestApp, waitFor } from '@onramp/testing';

import {
  SettlementHarness,
  settlementIn,
  settlementOf,
  SettlementRow,
  TransactionRow,
  transactionsOf,
} from './settlement-harness';

export interface ChainSettlementTestApp {
  app: NestFastifyApplication;
  dataSource: DataSource;
  databaseUrl: string;
  // The app's settlement rows (settlement-harness.ts), read from its own database.
  settlement(orderUuid: string): Promise<SettlementRow | undefined>;
  settlementIn(orderUuid: string, states: string[], timeoutMs?: number): Promise<SettlementRow>;
  transactions(orderUuid: string): Promise<TransactionRow[]>;
  close(): Promise<void>;
}

export interface StartOptions {
  env: Record<string, string>; // RPC_URL, CHAIN_ID, USDC_ADDRESS, SETTLEMENT_SIGNER_KEY, ...
  groupId: string; // the consumer group, unique to the suite (see startGroupAtEnd)
  databaseUrl?: string; // reuse a database: a restart of the same service
}

// The signer the app holds the lease of, for a test that drives a worker step by hand.
export function heldSigner(t: ChainSettlementTestApp): NonNullable<ReturnType<SignerLeases['current']>> {
  const signer = t.app.get(SignerLeases).current();
  if (!signer) throw new Error('the app holds no signer lease');
  return signer;
}

// Confirms these payments while the app's settlement worker is stopped and starts it again once every
// one of their settlements is PENDING (and `beforeStart` ran), so that one signing batch and one
// in-flight pass take them all.
export async function confirmAsOneBatch(
  t: ChainSettlementTestApp,
  h: SettlementHarness,
  payments: PaymentConfirmedV1[],
  beforeStart: () => void = () => undefined,
): Promise<void> {
  const worker = t.app.get(SettlementWorker);
  await worker.stop();
  try {
    for (const data of payments) await h.confirm(data);
    await waitFor(
      async () => {
        const rows = await Promise.all(payments.map((data) => t.settlement(data.orderUuid)));
        return rows.every((row) => row?.state === 'PENDING') || undefined;
      },
      { description: `${payments.length} PENDING settlements` },
    );
    beforeStart();
  } finally {
    worker.start();
  }
}

export async function freshDatabase(): Promise<string> {
  const server = process.env['DATABASE_URL'];
  if (!server) throw new Error('DATABASE_URL is not set: run with jest.integration.config.js');
  return createDatabase(server, `settlement_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`);
}

// The real service module (consumer, worker, chain client) with only its consumer group swapped for
// the suite's own. A config of its own, built from the suite's environment (Postgres and Kafka from
// the global setup) and what this test asks for; the process environment stays as it was.
export async function startChainSettlementTestApp(opts: StartOptions): Promise<ChainSettlementTestApp> {
  const databaseUrl = opts.databaseUrl ?? (await freshDatabase());
  const config = loadChainSettlementConfig({ ...process.env, ...opts.env, DATABASE_URL: databaseUrl });
  const app = await startServiceTestApp(ChainSettlementModule.forRoot(config), {
    schema: SETTLEMENT_SCHEMA,
    groupId: opts.groupId,
  });
  const dataSource = app.get(DataSource);
  return {
    app,
    dataSource,
    databaseUrl,
    settlement: (orderUuid) => settlementOf(dataSource, orderUuid),
    settlementIn: (orderUuid, states, timeoutMs) => settlementIn(dataSource, orderUuid, states, timeoutMs),
    transactions: (orderUuid) => transactionsOf(dataSource, orderUuid),
    close: () => app.close(),
  };
}
