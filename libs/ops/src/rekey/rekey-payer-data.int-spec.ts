import { randomUUID } from 'node:crypto';

import {
  FieldCipher,
  ibanIndexes,
  paymentsFieldContext,
  payerNameContext,
  sealPayerName,
  webhookBodyContext,
  webhookSecretContext,
} from '@onramp/crypto';

import { rekeyPayerData, rekeyWebhookSecrets } from './rekey-payer-data';
import { useRekeyDatabase } from './rekey-test-database';

describe('rekeyPayerData (real Postgres)', () => {
  const rekey = useRekeyDatabase(async (db) => {
    // The tables as the services' migrations create them, reduced to the columns the rekey touches;
    // no webhooks schema here (a database without that service): reported missing, not an error.
    await db.query(`CREATE SCHEMA payments; CREATE SCHEMA orders; CREATE SCHEMA settlement`);
    await db.query(`CREATE TABLE payments.bank_transactions (id UUID PRIMARY KEY, payer_name TEXT NOT NULL,
      payer_iban TEXT, payer_iban_index TEXT)`);
    await db.query(`CREATE TABLE payments.returns (id UUID PRIMARY KEY, creditor_name TEXT NOT NULL,
      creditor_iban TEXT NOT NULL, pain001 TEXT NOT NULL, creditor_iban_index TEXT)`);
    await db.query(
      `CREATE TABLE payments.kyc_holders (user_uuid UUID PRIMARY KEY, holder_name TEXT NOT NULL)`,
    );
    await db.query(`CREATE TABLE orders.orders (uuid UUID PRIMARY KEY, payer_account_holder_name TEXT)`);
    await db.query(
      `CREATE TABLE settlement.settlements (order_uuid UUID PRIMARY KEY, payer_account_holder_name TEXT NOT NULL)`,
    );
  });
  const { oldKey, newKey } = rekey;

  it('seals plain rows, re-seals old ones under the newest key with their index, resumably', async () => {
    const { databaseUrl, db } = rekey;
    const old = new FieldCipher(oldKey);
    const credits: string[] = Array.from({ length: 5 }, () => randomUUID());
    for (const [i, id] of credits.entries()) {
      // the first two as stored before sealing, the others sealed under the old key
      const name = `Ada ${i}`;
      const iban = i === 4 ? null : `DE0212030000000020205${i}`;
      const sealed = i >= 2;
      await db.query(`INSERT INTO payments.bank_transactions VALUES ($1, $2, $3, $4)`, [
        id,
        sealed ? old.encrypt(name, paymentsFieldContext('bank-transaction', id, 'payer-name')) : name,
        sealed && iban ? old.encrypt(iban, paymentsFieldContext('bank-transaction', id, 'payer-iban')) : iban,
        sealed && iban ? ibanIndexes([oldKey], iban)[0] : null,
      ]);
    }
    const returnId = randomUUID();
    await db.query(
      `INSERT INTO payments.returns VALUES ($1, 'Ada 0', 'DE02120300000000202050', '<Document/>')`,
      [returnId],
    );
    const user = randomUUID();
    await db.query(`INSERT INTO payments.kyc_holders VALUES ($1, 'Grace Hopper')`, [user]);
    const order = randomUUID();
    await db.query(`INSERT INTO orders.orders VALUES ($1, $2), ($3, NULL)`, [
      order,
      sealPayerName(old, order, 'Ada 2'),
      randomUUID(),
    ]);
    await db.query(`INSERT INTO settlement.settlements VALUES ($1, 'Ada 2')`, [order]);

    const first = await rekeyPayerData({ databaseUrl, keys: [newKey, oldKey], batchSize: 2 });
    expect(first.resealed).toEqual({
      'payments.bank_transactions': 5,
      'payments.returns': 1,
      'payments.kyc_holders': 1,
      'orders.orders': 1, // the order without a payer name has nothing to seal
      'settlement.settlements': 1,
    });
    expect(first.missing).toEqual(['webhooks.deliveries']);
    const again = await rekeyPayerData({ databaseUrl, keys: [newKey, oldKey] });
    expect(Object.values(again.resealed).every((n) => n === 0)).toBe(true);

    const current = new FieldCipher(newKey); // the old key is no longer needed
    const { rows } = await db.query<{
      id: string;
      payer_name: string;
      payer_iban: string | null;
      payer_iban_index: string | null;
    }>(`SELECT id, payer_name, payer_iban, payer_iban_index FROM payments.bank_transactions`);
    for (const row of rows) {
      const i = credits.indexOf(row.id);
      expect(
        current.decrypt(row.payer_name, paymentsFieldContext('bank-transaction', row.id, 'payer-name')),
      ).toBe(`Ada ${i}`);
      if (i === 4) {
        expect(row).toMatchObject({ payer_iban: null, payer_iban_index: null });
        continue;
      }
      const iban = `DE0212030000000020205${i}`;
      expect(
        current.decrypt(row.payer_iban!, paymentsFieldContext('bank-transaction', row.id, 'payer-iban')),
      ).toBe(iban);
      expect(row.payer_iban_index).toBe(ibanIndexes([newKey], iban)[0]);
    }
    const [ret] = (await db.query(`SELECT * FROM payments.returns`)).rows;
    expect(current.decrypt(ret.pain001, paymentsFieldContext('return', returnId, 'pain001'))).toBe(
      '<Document/>',
    );
    expect(ret.creditor_iban_index).toBe(ibanIndexes([newKey], 'DE02120300000000202050')[0]);
    const [settlement] = (await db.query(`SELECT * FROM settlement.settlements`)).rows;
    expect(current.decrypt(settlement.payer_account_holder_name, payerNameContext(order))).toBe('Ada 2');
    expect(webhookBodyContext(order)).toBe(`webhook-body:${order}`);
  });

  it("re-seals webhook-dispatch's signing secrets under the newest key of their own ring", async () => {
    const { databaseUrl, db } = rekey;
    await db.query(`CREATE SCHEMA webhooks`);
    await db.query(
      `CREATE TABLE webhooks.endpoints (merchant_id UUID PRIMARY KEY, secret_enc TEXT NOT NULL)`,
    );
    const merchant = randomUUID();
    await db.query(`INSERT INTO webhooks.endpoints VALUES ($1, $2)`, [
      merchant,
      new FieldCipher(oldKey).encrypt('whsec_abc', webhookSecretContext(merchant)),
    ]);
    const report = await rekeyWebhookSecrets({ databaseUrl, keys: [newKey, oldKey] });
    expect(report.resealed).toEqual({ 'webhooks.endpoints': 1 });
    const [row] = (await db.query(`SELECT secret_enc FROM webhooks.endpoints`)).rows;
    expect(new FieldCipher(newKey).decrypt(row.secret_enc, webhookSecretContext(merchant))).toBe('whsec_abc');
    expect((await rekeyWebhookSecrets({ databaseUrl, keys: [newKey, oldKey] })).resealed).toEqual({
      'webhooks.endpoints': 0,
    });
  });
});
