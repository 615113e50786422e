import { parseEnvelope } from '@onramp/contracts';
import type { OrderCompletedWebhook, OrderFailedWebhook } from '@onramp/sdk';

import {
  OrderCompletedWebhookBody,
  OrderFailedWebhookBody,
  OrderOutcomeEvent,
  webhookBodyOf,
} from './order-webhook-body.presenter';

// Merchants compile against the SDK's body types: they must be exactly what the presenter sends
// (typecheck fails otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sdkTypesMatch: [
  Same<OrderCompletedWebhookBody, OrderCompletedWebhook>,
  Same<OrderFailedWebhookBody, OrderFailedWebhook>,
] = [true, true];

const ORDER = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
const USER = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HASH = `0x${'ab'.repeat(32)}`;
const MERCHANT = '11111111-2222-4333-8444-555555555555';

// As the consumer hands it over: the raw record, parsed and validated (and upcast) by contracts.
const consumed = (type: string, version: number, data: object) =>
  parseEnvelope(
    JSON.stringify({
      id: 'e1',
      type,
      version,
      occurredAt: '2025-03-01T12:00:00.123Z',
      merchantId: MERCHANT,
      data,
    }),
  ) as OrderOutcomeEvent;

const theOrder = {
  orderUuid: ORDER,
  kycUserUuid: USER,
  amount: '100.10',
  currency: 'EUR',
  reference: 'RF18539007547034',
  recipientAddress: ADDRESS,
};

const completedV2 = {
  ...theOrder,
  payedAmount: '100.10',
  payerAccountHolderName: 'Jane Doe',
  fxRateBase: '1.0800',
  fxRateEffective: '1.0692',
  fxRateUpdatedAt: '2025-03-01T11:59:00+00:00',
  sentTokenAmount: '107.02692',
  sentTokenCurrency: 'USDC',
  transactionHash: HASH,
  message: `Payment of 100.10 EUR received; 107.02692 USDC sent to ${ADDRESS}`,
  completedAt: '2025-03-01T12:00:00.123Z',
};

const failedV2 = {
  ...theOrder,
  payedAmount: '0',
  sentTokenAmount: '0',
  sentTokenCurrency: null,
  transactionHash: '',
  failedAt: '2025-03-01T12:00:00.123Z',
  reason: 'SEPA credit rejected by the bank',
};

// docs/api.md (Events), to the byte: these fields, this order, amounts as JSON numbers.
const COMPLETED_BODY =
  `{"event":"order.completed","status":"COMPLETED","orderUuid":"${ORDER}","userUuid":"${USER}",` +
  `"amount":100.1,"payedAmount":100.1,"payerAccountHolderName":"Jane Doe","currency":"EUR",` +
  `"fxRateBase":"1.0800","fxRateEffective":"1.0692","fxRateUpdatedAt":"2025-03-01T11:59:00.000Z",` +
  `"sentTokenAmount":107.02692,"sentTokenCurrency":"USDC","reference":"RF18539007547034",` +
  `"recipientAddress":"${ADDRESS}","transactionHash":"${HASH}",` +
  `"message":"Payment of 100.10 EUR received; 107.02692 USDC sent to ${ADDRESS}",` +
  `"timestamp":"2025-03-01T12:00:00.123Z"}`;
const FAILED_BODY =
  `{"event":"order.failed","status":"FAILED","orderUuid":"${ORDER}","userUuid":"${USER}",` +
  `"amount":100.1,"payedAmount":0,"sentTokenAmount":0,"sentTokenCurrency":null,"currency":"EUR",` +
  `"reference":"RF18539007547034","recipientAddress":"${ADDRESS}","transactionHash":"",` +
  `"message":"SEPA credit rejected by the bank","timestamp":"2025-03-01T12:00:00.123Z"}`;

describe('webhookBodyOf', () => {
  it('sends what the SDK types describe', () => expect(sdkTypesMatch).toEqual([true, true]));

  it('presents order.completed as the spec body', () => {
    expect(webhookBodyOf(consumed('order.completed', 2, completedV2))).toBe(COMPLETED_BODY);
  });

  it('presents order.failed as the spec body: no payer name, no FX fields, nothing sent', () => {
    expect(webhookBodyOf(consumed('order.failed', 2, failedV2))).toBe(FAILED_BODY);
  });

  it('writes USDC amounts without float noise', () => {
    const body = webhookBodyOf(
      consumed('order.completed', 2, { ...completedV2, sentTokenAmount: '0.000001' }),
    );
    expect(body).toContain('"sentTokenAmount":0.000001,');
  });

  // Version 1 events were the body itself, keys in any order after JSONB: a rolling upgrade must
  // deliver them exactly as the version that wrote them would have.
  it('sends a version-1 event as the same bytes as before', () => {
    const v1Completed = JSON.parse(COMPLETED_BODY) as Record<string, unknown>;
    const shuffled = Object.fromEntries(Object.entries(v1Completed).reverse());
    expect(webhookBodyOf(consumed('order.completed', 1, shuffled))).toBe(COMPLETED_BODY);
    expect(webhookBodyOf(consumed('order.failed', 1, JSON.parse(FAILED_BODY)))).toBe(FAILED_BODY);
  });
});
