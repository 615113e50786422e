import { randomBytes, randomUUID } from 'node:crypto';

import { Wallet } from 'ethers';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';

import { createMerchant, kycUserBody } from './support/api-client';
import { e2e } from './support/env';
import { TestMerchant } from './support/test-merchant';
import { WebhookReceiver } from './support/webhook-receiver';

// After the whole flow (KYC user, order, a SEPA credit with the payer's name and IBAN, the USDC
// payout, the order.completed webhook), nothing the platform stores holds that PII in clear: every
// table of every schema (each row as text, all columns) and the whole event log (embedded: the
// Postgres event log table, which is one of those tables; distributed: every Kafka topic). The values
// are unique to this run, so a shared broker's older events cannot be mistaken for this run's.

const letters = (n: number): string =>
  Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');
const capital = (s: string): string => s[0].toUpperCase() + s.slice(1);

// A valid German IBAN (ISO 13616 check digits) with a random account number.
function randomIban(): string {
  const bban = `37040044${String(randomBytes(5).readUIntBE(0, 5) % 1e10).padStart(10, '0')}`;
  const numeric = `${bban}131400`; // D=13, E=14, then 00
  const mod = [...numeric].reduce((r, d) => (r * 10 + Number(d)) % 97, 0);
  return `DE${String(98 - mod).padStart(2, '0')}${bban}`;
}

const run = {
  firstName: capital(letters(9)),
  lastName: capital(letters(11)),
  email: `${letters(12)}@example.com`,
  documentNumber: `C${letters(3).toUpperCase()}${Math.floor(Math.random() * 1e6)
    .toString()
    .padStart(6, '0')}`,
  payerName: `${capital(letters(8))} ${capital(letters(10))}`,
  payerIban: randomIban(),
};
const needles: Record<string, string> = {
  "the KYC user's first name": run.firstName,
  "the KYC user's last name": run.lastName,
  "the KYC user's email": run.email,
  "the KYC user's document number": run.documentNumber,
  "the payer's first name": run.payerName.split(' ')[0],
  "the payer's last name": run.payerName.split(' ')[1],
  "the payer's IBAN": run.payerIban,
  "the payer's IBAN without its check digits": run.payerIban.slice(4),
};

const findingsIn = (where: string, text: string): string[] =>
  Object.entries(needles)
    .filter(([, value]) => text.toLowerCase().includes(value.toLowerCase()))
    .map(([what]) => `${what} in ${where}`);

async function dumpDatabase(url: string): Promise<Map<string, string>> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rows: tables } = await db.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
       ORDER BY 1, 2`,
    );
    const dump = new Map<string, string>();
    for (const t of tables) {
      const { rows } = await db.query<{ row: string }>(
        `SELECT t::text AS row FROM "${t.schema}"."${t.name}" t`,
      );
      dump.set(`${t.schema}.${t.name}`, rows.map((r) => r.row).join('\n'));
    }
    return dump;
  } finally {
    await db.end();
  }
}

// Every message of every topic, from the beginning up to the end as it is now.
async function dumpTopics(brokers: string): Promise<Map<string, string>> {
  const kafka = new Kafka({ clientId: 'pii-dump', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topics = (await admin.listTopics()).filter((t) => !t.startsWith('__'));
  const remaining = new Map<string, number>(); // topic:partition -> offset of its last message
  for (const topic of topics) {
    for (const p of await admin.fetchTopicOffsets(topic)) {
      if (Number(p.high) > Number(p.low)) remaining.set(`${topic}:${p.partition}`, Number(p.high) - 1);
    }
  }
  await admin.disconnect();
  const dump = new Map<string, string[]>(topics.map((t) => [t, []]));
  if (remaining.size === 0) return new Map(topics.map((t) => [t, '']));
  const consumer = kafka.consumer({ groupId: `pii-dump-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`topics not read to their end: ${[...remaining.keys()]}`)),
      60_000,
    );
    void consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        dump.get(topic)!.push(`${message.key?.toString() ?? ''} ${message.value?.toString() ?? ''}`);
        const key = `${topic}:${partition}`;
        if (Number(message.offset) >= (remaining.get(key) ?? Infinity)) remaining.delete(key);
        if (remaining.size === 0) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
  });
  await consumer.disconnect();
  return new Map([...dump].map(([t, messages]) => [t, messages.join('\n')]));
}

describe('PII at rest after the e2e flow', () => {
  const receiver = new WebhookReceiver();

  afterAll(() => receiver.stop());

  it('finds no plaintext payer name, IBAN, KYC name, email or document number in any table or event', async () => {
    const api = new TestMerchant(await createMerchant('PII At Rest GmbH'));
    await api.setWebhook(await receiver.start());
    const kyc = await api.createKycUser(
      kycUserBody({
        firstName: run.firstName,
        lastName: run.lastName,
        email: run.email,
        document: {
          type: 'PASSPORT',
          number: run.documentNumber,
          issuingCountry: 'DE',
          expiryDate: '2034-01-31',
        },
      }),
      { idempotencyKey: `pii-${randomUUID()}` }, // the idempotency record keeps the answer: sealed
    );
    expect(kyc.status).toBe('APPROVED');
    const order = await api.createOrder(
      { amount: 25, currency: 'EUR', recepientAddress: Wallet.createRandom().address, kycUserUuid: kyc.uuid },
      { idempotencyKey: `pii-${randomUUID()}` },
    );
    await api.sandboxCredit({
      reference: order.reference,
      amount: 25,
      currency: 'EUR',
      payerName: run.payerName,
      payerIban: run.payerIban,
    });
    // a second credit for the paid order: kept in suspense, with the same payer data
    await api.sandboxCredit({
      reference: order.reference,
      amount: 5,
      currency: 'EUR',
      payerName: run.payerName,
      payerIban: run.payerIban,
    });
    const hook = await receiver.waitFor((w) => w.body.orderUuid === order.uuid);
    // the merchant still gets the payer's name, in clear, in the signed body
    expect(hook.body).toMatchObject({ event: 'order.completed', payerAccountHolderName: run.payerName });

    const tables = await dumpDatabase(e2e.databaseUrl());
    expect(tables.get('payments.bank_transactions')).toMatch(/v1\./); // the dump sees sealed values
    expect(tables.get('webhooks.deliveries')).toContain(order.uuid);
    const findings = [...tables].flatMap(([table, text]) => findingsIn(`table ${table}`, text));
    if (e2e.mode() === 'embedded') {
      expect(tables.get('eventbus.log')).toContain(order.uuid); // the event log is one of the tables
    } else {
      const topics = await dumpTopics(e2e.kafkaBrokers());
      expect(topics.get('payment.confirmed')).toContain(order.uuid);
      findings.push(...[...topics].flatMap(([topic, text]) => findingsIn(`topic ${topic}`, text)));
    }
    expect(findings).toEqual([]);
  });
});
