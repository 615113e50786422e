import { randomUUID } from 'node:crypto';

import { EventEnvelope, KycUserRegisteredV1, OrderCreatedV1, Topics } from '@onramp/contracts';
import { DEVELOPMENT_KEYS, FieldCipher, kycHolderNameContext } from '@onramp/crypto';
import { KycEventsHandler, OrderEventsHandler } from '@onramp/payments-feature';
import { generateRfReference } from '@onramp/sepa';
import { eventsAbout, publishedEvents } from '@onramp/testing';

import { collectionCamt054, uploadStatement } from '../testing/bank-statements';
import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';
import { postSepaCredit } from '../testing/sandbox-credits';

const RECIPIENT = '0x' + '3'.repeat(40);

describe('payment-ingest: payer name policy HOLD (integration)', () => {
  let t: PaymentIngestTestApp;
  const merchant = randomUUID();
  const envelope = <T>(type: string, data: T): EventEnvelope<never, T> =>
    ({
      id: randomUUID(),
      type,
      version: 1,
      occurredAt: new Date().toISOString(),
      merchantId: merchant,
      data,
    }) as unknown as EventEnvelope<never, T>;

  const openOrder = async (
    kycUserUuid: string,
    amount: string,
  ): Promise<{ orderUuid: string; reference: string }> => {
    const orderUuid = randomUUID();
    const reference = generateRfReference();
    const data = { orderUuid, reference, amount, currency: 'EUR', recipientAddress: RECIPIENT, kycUserUuid };
    await t.dataSource.transaction((m) =>
      t.app
        .get(OrderEventsHandler)
        .onOrderCreated(
          envelope('order.created', data) as unknown as EventEnvelope<'order.created', OrderCreatedV1>,
          m,
        ),
    );
    return { orderUuid, reference };
  };

  beforeAll(async () => {
    t = await startPaymentIngestTestApp({ PAYER_NAME_POLICY: 'HOLD' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("pays the KYC user's own transfer (diacritics, order, middle name) and holds a third party and an unknown user", async () => {
    const user = randomUUID();
    const stranger = randomUUID();
    const registered: KycUserRegisteredV1 = {
      userUuid: user,
      status: 'APPROVED',
      // as kyc sends it: sealed under the payer-data ring for this user
      holderName: new FieldCipher(DEVELOPMENT_KEYS.payerDataEncryption).encrypt(
        'Zoë Anne Müller',
        kycHolderNameContext(user),
      ),
    };
    await t.dataSource.transaction((m) =>
      t.app.get(KycEventsHandler).onRegistered(envelope('kyc.user.registered', registered) as never, m),
    );
    const own = await openOrder(user, '100.00');
    const thirdParty = await openOrder(user, '50.00');
    const unknownUser = await openOrder(stranger, '20.00');
    const xml = collectionCamt054(`NAMES-${randomUUID()}`, [
      {
        accountServicerRef: 'N1',
        amount: '100.00',
        debtorName: 'MUELLER ZOE',
        debtorIban: 'DE02120300000000202051',
        structuredReference: own.reference,
      },
      {
        accountServicerRef: 'N2',
        amount: '50.00',
        debtorName: 'Hans Schmidt',
        debtorIban: 'DE02500105170137075030',
        structuredReference: thirdParty.reference,
      },
      {
        accountServicerRef: 'N3',
        amount: '20.00',
        debtorName: 'Somebody Else',
        debtorIban: 'DE12500105170648489890',
        structuredReference: unknownUser.reference,
      },
    ]);
    const res = await uploadStatement(t, xml);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ creditsBooked: 3, creditsMatched: 1 });
    const rows: { ref: string; check: string; reason: string | null; status: string }[] =
      await t.dataSource.query(
        `SELECT account_servicer_ref AS ref, payer_name_check AS check, suspense_reason AS reason, match_status AS status
       FROM payments.bank_transactions ORDER BY account_servicer_ref`,
      );
    expect(rows).toEqual([
      { ref: 'N1', check: 'MATCH', reason: null, status: 'MATCHED' },
      { ref: 'N2', check: 'MISMATCH', reason: 'PAYER_NAME_MISMATCH', status: 'UNMATCHED' },
      { ref: 'N3', check: 'UNKNOWN', reason: 'PAYER_NAME_UNKNOWN', status: 'UNMATCHED' },
    ]);
  });

  it('pays a statement credit that arrived before its order.created, once the order is known', async () => {
    const user = randomUUID();
    await t.dataSource.transaction((m) =>
      t.app.get(KycEventsHandler).onRegistered(
        envelope('kyc.user.registered', {
          userUuid: user,
          status: 'APPROVED',
          holderName: 'Grace Hopper', // an event from before the name was sealed
        }) as never,
        m,
      ),
    );
    const reference = generateRfReference();
    const xml = collectionCamt054(`EARLY-${randomUUID()}`, [
      {
        accountServicerRef: 'EARLY1',
        amount: '30.00',
        debtorName: 'Grace Hopper',
        debtorIban: 'DE02120300000000202051',
        structuredReference: reference,
      },
    ]);
    const res = await uploadStatement(t, xml);
    expect(res.json()).toMatchObject({ creditsBooked: 1, creditsMatched: 0 });
    const orderUuid = randomUUID();
    const data = {
      orderUuid,
      reference,
      amount: '30.00',
      currency: 'EUR',
      recipientAddress: RECIPIENT,
      kycUserUuid: user,
    };
    await t.dataSource.transaction((m) =>
      t.app
        .get(OrderEventsHandler)
        .onOrderCreated(
          envelope('order.created', data) as unknown as EventEnvelope<'order.created', OrderCreatedV1>,
          m,
        ),
    );
    const rows: { status: string; reason: string | null; order: string }[] = await t.dataSource.query(
      `SELECT match_status AS status, suspense_reason AS reason, matched_order_uuid AS order FROM payments.bank_transactions WHERE account_servicer_ref = 'EARLY1'`,
    );
    expect(rows).toEqual([{ status: 'MATCHED', reason: null, order: orderUuid }]);
    // published once (the relay deletes what it published)
    const published = await publishedEvents((sql) => t.dataSource.query(sql), 'payments', [
      Topics.PaymentConfirmed,
    ]);
    expect(eventsAbout(published, [orderUuid])).toHaveLength(1);
  });

  // A sandbox credit reads the policies and the holder's name with its reference, in one statement.
  it('applies the same policies to a sandbox credit, and the merchant policy stored for it', async () => {
    const user = randomUUID();
    const registered: KycUserRegisteredV1 = {
      userUuid: user,
      status: 'APPROVED',
      holderName: new FieldCipher(DEVELOPMENT_KEYS.payerDataEncryption).encrypt(
        'Zoë Anne Müller',
        kycHolderNameContext(user),
      ),
    };
    await t.dataSource.transaction((m) =>
      t.app.get(KycEventsHandler).onRegistered(envelope('kyc.user.registered', registered) as never, m),
    );
    const orders = [
      await openOrder(user, '100.00'),
      await openOrder(user, '100.00'),
      await openOrder(user, '100.00'),
      await openOrder(user, '100.00'),
    ];
    const credit = async (i: number, payerName: string, amount: number) => {
      const res = await postSepaCredit(t, merchant, { reference: orders[i].reference, payerName, amount });
      expect(res.statusCode).toBe(202);
      const [row] = await t.dataSource.query(
        `SELECT payer_name_check AS check, suspense_reason AS reason, match_status AS status
         FROM payments.bank_transactions WHERE id = $1`,
        [res.json().bankTransactionId],
      );
      return row;
    };
    expect(await credit(0, 'MUELLER ZOE', 100)).toEqual({ check: 'MATCH', reason: null, status: 'MATCHED' });
    expect(await credit(1, 'Hans Schmidt', 100)).toEqual({
      check: 'MISMATCH',
      reason: 'PAYER_NAME_MISMATCH',
      status: 'UNMATCHED',
    });
    await t.dataSource.query(
      `INSERT INTO payments.merchant_payment_policies (merchant_id, amount_policy, payer_name_policy, updated_by)
       VALUES ($1, 'EXACT', 'WARN', 'test')`,
      [merchant],
    );
    expect(await credit(2, 'Hans Schmidt', 100)).toEqual({ check: 'MISMATCH', reason: null, status: 'MATCHED' });
    expect(await credit(3, 'MUELLER ZOE', 100.5)).toEqual({
      check: null,
      reason: 'AMOUNT_NOT_EXACT',
      status: 'UNMATCHED',
    });
  });
});
