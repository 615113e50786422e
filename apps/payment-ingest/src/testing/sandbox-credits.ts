import { PaymentIngestTestApp } from './payment-ingest-test-app';

// POST /sandbox/sepa-credits as the merchant: 100 EUR from Jane Doe unless the body says otherwise.
export const postSepaCredit = (t: PaymentIngestTestApp, merchantId: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/sepa-credits',
    headers: { authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` },
    payload: { amount: 100, currency: 'EUR', payerName: 'Jane Doe', ...body },
  });
