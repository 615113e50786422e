import { randomUUID } from 'node:crypto';

import { DataSource, EntityManager } from 'typeorm';

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

  // Rows of the tables below read by `call`, by sequential scans and through indexes: the counts
  // this backend has not yet reported, before and after the call in the same transaction.
  const tables = ['kyc_holders', 'merchant_payment_policies', 'open_references'];
  const rowsReadBy = async (
    m: EntityManager,
    call: () => Promise<unknown>,
  ): Promise<Record<string, number>> => {
    const counts = async () =>
      (
        (await m.query(
          `SELECT relname AS table, (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
           FROM pg_stat_xact_user_tables WHERE schemaname = $1 AND relname = ANY($2::text[])`,
          [PAYMENTS_SCHEMA, tables],
        )) as Array<{ table: string; read: number }>
      ).reduce<Record<string, number>>((all, r) => ({ ...all, [r.table]: r.read }), {});
    const before = await counts();
    await call();
    const after = await counts();
    return Object.fromEntries(tables.map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)]));
  };

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

  // The credit locks the references it names, and the merchant's policies and the order's KYC holder
  // are joined to them. Planned once per connection, maybe while those tables held a few rows, the
  // statement must still read only those rows once the tables have grown: with sequential scans the
  // joins read every KYC holder and every reference at each credit, and with the merchant compared
  // by `=` the references were read through the merchant's index, every one it ever opened.
  it('reads only the references it locks, their policy and KYC holder, after those tables have grown', async () => {
    // the statistics of a new deployment, whatever autovacuum would do meanwhile
    for (const table of tables)
      await ds.query(`ALTER TABLE payments.${table} SET (autovacuum_enabled = false)`);
    const others = (count: number) =>
      ds.query(
        `WITH others AS (SELECT gen_random_uuid() AS merchant, gen_random_uuid() AS kyc, n FROM generate_series(1, $1::int) n),
       holders AS (INSERT INTO payments.kyc_holders (user_uuid, merchant_id, holder_name)
                   SELECT kyc, merchant, 'sealed' FROM others),
       policies AS (INSERT INTO payments.merchant_payment_policies (merchant_id, amount_policy, updated_by)
                    SELECT merchant, 'EXACT', 'operator' FROM others)
       INSERT INTO payments.open_references (reference, order_uuid, merchant_id, amount, currency, recipient_address,
                                             status, kyc_user_uuid)
       SELECT 'RF18OTHER' || gen_random_uuid(), gen_random_uuid(), merchant, 10, 'EUR',
              '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 'OPEN', kyc FROM others`,
        [count],
      );
    await ds.query(
      `INSERT INTO payments.merchant_payment_policies (merchant_id, amount_policy, updated_by)
       VALUES ($1, 'EXACT', 'operator')`,
      [merchant],
    );
    const open = async (reference: string) => {
      const kyc = randomUUID();
      await ds.query(
        `INSERT INTO payments.kyc_holders (user_uuid, merchant_id, holder_name) VALUES ($1, $2, 'sealed')`,
        [kyc, merchant],
      );
      await ds.query(
        `INSERT INTO payments.open_references (reference, order_uuid, merchant_id, amount, currency, recipient_address,
                                               status, kyc_user_uuid)
         VALUES ($1, $2, $3, 10, 'EUR', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 'OPEN', $4)`,
        [reference, randomUUID(), merchant, kyc],
      );
    };
    const bounded = { kyc_holders: 1, merchant_payment_policies: 1, open_references: 1 };

    // planned again (an ANALYZE invalidates the plans) while each table holds a few rows
    await others(2);
    await open('RF18SMALL');
    for (const table of tables) await ds.query(`VACUUM (ANALYZE) payments.${table}`);
    await ds.transaction((m) =>
      repo.insertAndLockMerchantReferences(m, credit('SANDBOX', 'RF18SMALL'), ['RF18SMALL']),
    );
    await ds.transaction((m) =>
      repo.insertOnceAndLockReferences(m, credit('STATEMENT', 'RF18SMALLTOO'), ['RF18SMALLTOO']),
    );
    await others(5000);

    await open('RF18GROWNSANDBOX');
    await ds.transaction(async (m) => {
      const reference = 'RF18GROWNSANDBOX';
      let found: Awaited<ReturnType<typeof repo.insertAndLockMerchantReferences>> = [];
      const read = await rowsReadBy(m, async () => {
        found = await repo.insertAndLockMerchantReferences(m, credit('SANDBOX', reference), [reference]);
      });
      expect(found[0]?.context).toEqual({
        policy: expect.objectContaining({ amountPolicy: 'EXACT' }),
        sealedHolderName: 'sealed',
      });
      expect(read).toEqual(bounded);
    });
    await open('RF18GROWNSTATEMENT');
    await ds.transaction(async (m) => {
      const reference = 'RF18GROWNSTATEMENT';
      let found: Awaited<ReturnType<typeof repo.insertOnceAndLockReferences>>['found'] = [];
      const read = await rowsReadBy(m, async () => {
        ({ found } = await repo.insertOnceAndLockReferences(m, credit('STATEMENT', reference), [reference]));
      });
      expect(found[0]?.context.sealedHolderName).toBe('sealed');
      expect(read).toEqual(bounded);
    });
    await open('RF18GROWNFIRST');
    await open('RF18GROWNSECOND');
    await ds.transaction(async (m) => {
      const references = ['RF18GROWNFIRST', 'RF18GROWNSECOND'];
      let found: Awaited<ReturnType<typeof repo.insertManyAndLockMerchantReferences>> = [];
      const read = await rowsReadBy(m, async () => {
        found = await repo.insertManyAndLockMerchantReferences(
          m,
          references.map((reference) => credit('SANDBOX', reference)),
        );
      });
      expect(found.map((refs) => refs.map((r) => r.context.sealedHolderName))).toEqual([
        ['sealed'],
        ['sealed'],
      ]);
      expect(read).toEqual({ kyc_holders: 2, merchant_payment_policies: 2, open_references: 2 });
    });
    expect(await plans()).toEqual([
      { generic: 10, custom: 0 },
      { generic: 10, custom: 0 },
    ]);
  });
});
