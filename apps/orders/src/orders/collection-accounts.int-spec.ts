import { randomUUID } from 'node:crypto';

import { chooseCollectionAccount } from '@onramp/sepa';

import { OrdersTestApp, startOrdersTestApp } from '../testing/orders-test-app';
import { OrderPaymentDetails, postOrder } from '../testing/post-order';

const ACCOUNTS = [
  { iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', name: 'Onramp Collections B.V.' },
  { iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP', name: 'Onramp SAS' },
  { iban: 'DE44500105175407324931', bic: 'INGDDEFFXXX', name: 'Onrämp GmbH' },
];

describe('orders spread over several collection accounts (integration)', () => {
  let t: OrdersTestApp;
  const merchant = randomUUID();
  const auth = { authorization: '' };

  beforeAll(async () => {
    const [first, ...more] = ACCOUNTS;
    t = await startOrdersTestApp({
      COLLECTION_IBAN: first!.iban,
      COLLECTION_BIC: first!.bic,
      COLLECTION_ACCOUNT_NAME: first!.name,
      COLLECTION_ACCOUNTS: more.map((a) => `${a.iban} ${a.bic} ${a.name}`).join(';'),
    });
    auth.authorization = `Bearer ${t.issuer.tokenFor(merchant)}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows each order the account its uuid chooses, in the details, the EPC payload and later reads', async () => {
    const kycUserUuid = randomUUID();
    t.kyc.users.set(kycUserUuid, { merchantId: merchant, status: 'APPROVED' });
    const used = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const created = await postOrder(t, auth, 10 + i, kycUserUuid);
      expect(created.statusCode).toBe(201);
      const order = created.json<OrderPaymentDetails>();
      const expected = chooseCollectionAccount(ACCOUNTS, order.uuid);
      expect({ iban: order.iban, bic: order.bic, name: order.beneficiaryName }).toEqual(expected);
      expect(order.epcQrPayload.split('\n').slice(4, 7)).toEqual([
        expected.bic,
        expected.name,
        expected.iban,
      ]);
      const details = await t.app.inject({
        method: 'GET',
        url: `/orders/${order.uuid}/payment-details`,
        headers: auth,
      });
      expect(details.json()).toMatchObject({
        iban: expected.iban,
        bic: expected.bic,
        reference: order.reference,
      });
      used.add(order.iban);
    }
    expect(used.size).toBeGreaterThan(1); // 12 orders on one of 3 accounts: (1/3)^11 by chance
  });
});
