import { randomUUID } from 'node:crypto';

import { Wallet } from 'ethers';
import { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';

import { EventEnvelope, PaymentConfirmedV1, Topics } from '@onramp/contracts';
import { generateRfReference } from '@onramp/sepa';
import {
  ensureTopics,
  envelope,
  EventCollector,
  produce,
  startGroupAtEnd,
  testKafka,
  waitFor,
} from '@onramp/testing';

export interface SettlementRow {
  state: string;
  tx_hash: string | null;
  raw_tx: string | null;
  nonce: string | null;
  token_amount: string | null;
  block_number: string | null;
  last_error: string | null;
}

export interface TransactionRow {
  tx_hash: string;
  nonce: string;
  raw_tx: string;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  first_sent_at: Date | null;
}

// The Kafka side of a settlement suite: a consumer group of its own that starts at the end of
// payment.confirmed (and of the suite's other topics), a producer playing payment-ingest, and a
// collector of transfer.* events.
export interface SettlementHarness {
  groupId: string;
  merchant: string;
  producer: Producer;
  collector: EventCollector;
  payment(overrides?: Partial<PaymentConfirmedV1>): PaymentConfirmedV1;
  confirm(
    data: PaymentConfirmedV1,
  ): Promise<EventEnvelope<typeof Topics.PaymentConfirmed, PaymentConfirmedV1>>; // the event sent
  close(): Promise<void>;
}

export async function startSettlementHarness(opts: { topics?: string[] } = {}): Promise<SettlementHarness> {
  const kafka = testKafka();
  const groupId = `onramp-chain-settlement-test-${randomUUID()}`;
  const merchant = randomUUID();
  const producer = kafka.producer();
  const collector = new EventCollector(kafka);
  await ensureTopics(kafka);
  await Promise.all([
    producer.connect(),
    collector.start([Topics.TransferSucceeded, Topics.TransferFailed]),
    startGroupAtEnd(groupId, [Topics.PaymentConfirmed, ...(opts.topics ?? [])], kafka),
  ]);
  return {
    groupId,
    merchant,
    producer,
    collector,
    payment: (overrides = {}) => ({
      orderUuid: randomUUID(),
      bankTransactionId: randomUUID(),
      reference: generateRfReference(),
      payedAmount: '10',
      currency: 'EUR',
      payerAccountHolderName: 'Jane Doe',
      recipientAddress: Wallet.createRandom().address,
      bookedAt: new Date().toISOString(),
      ...overrides,
    }),
    confirm: async (data) => {
      const event = envelope(Topics.PaymentConfirmed, merchant, data);
      await produce(producer, event, data.orderUuid);
      return event;
    },
    close: async () => {
      await collector.stop();
      await producer.disconnect();
    },
  };
}

export async function settlementOf(ds: DataSource, orderUuid: string): Promise<SettlementRow | undefined> {
  const rows: SettlementRow[] = await ds.query(
    `SELECT state, tx_hash, raw_tx, nonce::text, token_amount::text, block_number::text, last_error
     FROM settlement.settlements WHERE order_uuid = $1`,
    [orderUuid],
  );
  return rows[0];
}

// Every transaction signed for the settlement, oldest first.
export function transactionsOf(ds: DataSource, orderUuid: string): Promise<TransactionRow[]> {
  return ds.query(
    `SELECT tx_hash, nonce::text, raw_tx, max_fee_per_gas::text, max_priority_fee_per_gas::text, first_sent_at
     FROM settlement.settlement_transactions WHERE order_uuid = $1 ORDER BY id`,
    [orderUuid],
  );
}

export function settlementIn(
  ds: DataSource,
  orderUuid: string,
  states: string[],
  timeoutMs = 30_000,
): Promise<SettlementRow> {
  return waitFor(
    async () => {
      const row = await settlementOf(ds, orderUuid);
      return row && states.includes(row.state) ? row : undefined;
    },
    { timeoutMs, description: `settlement of ${orderUuid} in ${states.join('|')}` },
  );
}
