import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';

import { EventEnvelope, Topics } from '@onramp/contracts';
import { DEVELOPMENT_KEYS, FieldCipher, kycHolderNameContext } from '@onramp/crypto';
import { generateRfReference } from '@onramp/sepa';
import { envelope, produce, testKafka, waitFor } from '@onramp/testing';

import { collectionCamt054, uploadStatement } from '../testing/bank-statements';
import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';

interface HolderRow {
  holder_name: string | null;
  erased_at: Date | null;
}

describe('payment-ingest: kyc.user.erased drops the KYC holder name (integration, Kafka)', () => {
  let t: PaymentIngestTestApp;
  let producer: Producer;
  const kafka = testKafka();
  const merchant = randomUUID();
  const sealed = (user: string, name: string) =>
    new FieldCipher(DEVELOPMENT_KEYS.payerDataEncryption).encrypt(name, kycHolderNameContext(user));
  const registered = (user: string) =>
    envelope(Topics.KycUserRegistered, merchant, {
      userUuid: user,
      status: 'APPROVED',
      holderName: sealed(user, 'Ada Lovelace'),
    });
  const erased = (user: string) =>
    envelope(Topics.KycUserErased, merchant, { userUuid: user, erasedAt: '2026-11-23T17:00:00.000Z' });
  const holder = async (user: string): Promise<HolderRow | undefined> =>
    (
      await t.dataSource.query(
        `SELECT holder_name, erased_at FROM payments.kyc_holders WHERE user_uuid = $1`,
        [user],
      )
    )[0];
  const handled = (event: EventEnvelope) =>
    waitFor(
      async () =>
        (await t.dataSource.query(`SELECT 1 FROM payments.inbox WHERE event_id = $1`, [event.id])).length > 0,
      { timeoutMs: 30_000, description: `${event.type} ${event.id} handled` },
    );
  const send = async (event: EventEnvelope, key: string) => {
    await produce(producer, event, key);
    await handled(event);
  };

  beforeAll(async () => {
    producer = kafka.producer();
    await producer.connect();
    t = await startPaymentIngestTestApp({ PAYER_NAME_POLICY: 'HOLD' });
  });
  afterAll(async () => {
    await t?.close();
    await producer?.disconnect();
  });

  it('tombstones the name, idempotently, and a late credit of the user meets no known name', async () => {
    const user = randomUUID();
    await send(registered(user), user);
    expect((await holder(user))?.holder_name).toMatch(/^v1\./);

    const erasure = erased(user);
    await send(erasure, user);
    expect(await holder(user)).toEqual({ holder_name: null, erased_at: new Date(erasure.data.erasedAt) });
    // redelivered: the inbox makes it a no-op; a replayed registration does not bring the name back
    await produce(producer, erasure, user);
    await send(registered(user), user);
    expect(await holder(user)).toEqual({ holder_name: null, erased_at: new Date(erasure.data.erasedAt) });
    const marks = await t.dataSource.query(`SELECT 1 FROM payments.inbox WHERE event_id = $1`, [erasure.id]);
    expect(marks).toHaveLength(1);

    // an order of the user, paid afterwards by the (former) holder's own name: UNKNOWN, held (HOLD)
    const orderUuid = randomUUID();
    const reference = generateRfReference();
    const created = envelope(Topics.OrderCreated, merchant, {
      orderUuid,
      kycUserUuid: user,
      amount: '40.00',
      currency: 'EUR',
      recipientAddress: '0x' + '4'.repeat(40),
      reference,
      createdAt: new Date().toISOString(),
    });
    await send(created, orderUuid);
    const xml = collectionCamt054(`ERASED-${randomUUID()}`, [
      {
        accountServicerRef: `ERASED-${orderUuid}`,
        amount: '40.00',
        debtorName: 'Ada Lovelace',
        debtorIban: 'DE02120300000000202051',
        structuredReference: reference,
      },
    ]);
    const res = await uploadStatement(t, xml);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ creditsBooked: 1, creditsMatched: 0 });
    const rows = await t.dataSource.query(
      `SELECT payer_name_check AS check, suspense_reason AS reason, match_status AS status
       FROM payments.bank_transactions WHERE account_servicer_ref = $1`,
      [`ERASED-${orderUuid}`],
    );
    expect(rows).toEqual([{ check: 'UNKNOWN', reason: 'PAYER_NAME_UNKNOWN', status: 'UNMATCHED' }]);
  });

  it('keeps the erasure when the registration arrives after it (another topic)', async () => {
    const user = randomUUID();
    const erasure = erased(user);
    await send(erasure, user);
    await send(registered(user), user);
    expect(await holder(user)).toEqual({ holder_name: null, erased_at: new Date(erasure.data.erasedAt) });
  });
});
