import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { PAYMENTS_SCHEMA } from '../config';
import { SERVICE_DATABASE } from '../database';
import { BankTransactionEntity, NEWLY_BOOKED } from './bank-transaction.entity';
import { BankTransactionsRepository } from './bank-transactions.repository';

// A credit's first statement (insert it, lock the references it names, read what settling needs) is
// over the candidates' array: Postgres had planned it again at every credit (0.49 ms a credit in P3,
// docs/performance-journal.md). It runs with its generic plan, planned once per connection.
describe('bank transactions: a credit inserted with its references locked (integration, real Postgres)', () => {
  let ds: DataSource;
  const repo = new BankTransactionsRepository();
  const merchant = randomUUID();

  const credit = (source: 'SANDBOX' | 'STATEMENT', reference: string): BankTransactionEntity => {
    const now = new Date();
    return {
      id: randomUUID(),
      merchantId: merchant,
      source,
      accountIban: source === 'STATEMENT' ? 'DE89370400440532013000' : null,
      accountServicerRef: source === 'STATEMENT' ? randomUUID() : null,
      statementMessageId: null,
      suspenseReason: null,
      referenceRaw: reference,
      remittanceInformation: null,
      endToEndId: null,
      candidateReferences: [reference],
      amount: '10.00',
      currency: 'EUR',
      payerName: 'sealed',
      payerIban: null,
      payerIbanIndex: null,
      status: 'BOOKED',
      ...NEWLY_BOOKED,
      createdAt: now,
      updatedAt: now,
    };
  };

  beforeAll(async () => {
    // one connection: prepared statements are the connection's
    ds = await openServiceDataSource({
      url: await createDatabase(loadInfraConfig().databaseUrl as string),
      schema: PAYMENTS_SCHEMA,
      entities: [],
      migrations: SERVICE_DATABASE.migrations as Array<new () => object> as never,
      poolSize: 1,
    });
  });
  afterAll(async () => ds?.destroy());

  const plans = async (): Promise<Array<{ generic: number; custom: number }>> =>
    ds.query(
      `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
       WHERE statement LIKE 'WITH credit AS (%' ORDER BY statement`,
    );

  it('is planned once per connection, a sandbox credit and a statement credit alike', async () => {
    for (let i = 0; i < 8; i++) {
      const reference = `RF18ONCE${i}`;
      await ds.transaction((m) =>
        repo.insertAndLockMerchantReferences(m, credit('SANDBOX', reference), [reference]),
      );
      const found = await ds.transaction((m) =>
        repo.insertOnceAndLockReferences(m, credit('STATEMENT', reference), [reference]),
      );
      expect(found.inserted).toBe(true);
    }
    expect(await plans()).toEqual([
      { generic: 8, custom: 0 },
      { generic: 8, custom: 0 },
    ]);
  });
});
