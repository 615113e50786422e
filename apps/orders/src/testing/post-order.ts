import { OrdersTestApp } from './orders-test-app';
import { ADDRESS } from './settlement-fixtures';

// POST /orders/create with these headers (a merchant's token), paying out to ADDRESS; the answer as
// inject gives it, so a spec checks the status it expects (201, or a 400 for a refused amount).
export const postOrder = (
  t: OrdersTestApp,
  headers: Record<string, string>,
  amount: number,
  kycUserUuid: string,
) =>
  t.app.inject({
    method: 'POST',
    url: '/orders/create',
    headers,
    payload: { amount, currency: 'EUR', recepientAddress: ADDRESS, kycUserUuid },
  });

// What a created order tells the payer: where to pay, and the EPC QR payload for it.
export interface OrderPaymentDetails {
  uuid: string;
  iban: string;
  bic: string;
  reference: string;
  beneficiaryName: string;
  epcQrPayload: string;
}
