import { InvalidEventError, parseEnvelope } from '../events/validate-event';

const envelopeOf = (type: string, version: unknown, data: object) =>
  JSON.stringify({
    id: 'e1',
    type,
    version,
    occurredAt: '2025-03-01T12:00:00.000Z',
    merchantId: '11111111-2222-4333-8444-555555555555',
    data,
  });

const failedV1 = {
  event: 'order.failed',
  status: 'FAILED',
  orderUuid: '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b',
  userUuid: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5',
  amount: 100.1,
  payedAmount: 0.1,
  sentTokenAmount: 0,
  sentTokenCurrency: null,
  currency: 'EUR',
  reference: 'RF18539007547034',
  recipientAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  transactionHash: '',
  message: 'SEPA credit rejected by the bank',
  timestamp: '2025-03-01T12:00:00.123Z',
};

describe('order outcome events of version 1 (the old webhook body)', () => {
  it('are read as version 2: decimal strings, the event names of fields', () => {
    const event = parseEnvelope(envelopeOf('order.failed', 1, failedV1));
    expect(event.version).toBe(2);
    expect(event.data).toEqual({
      orderUuid: failedV1.orderUuid,
      kycUserUuid: failedV1.userUuid,
      amount: '100.1',
      currency: 'EUR',
      reference: 'RF18539007547034',
      recipientAddress: failedV1.recipientAddress,
      payedAmount: '0.1',
      sentTokenAmount: '0',
      sentTokenCurrency: null,
      transactionHash: '',
      reason: 'SEPA credit rejected by the bank',
      failedAt: '2025-03-01T12:00:00.123Z',
    });
  });

  it('are refused, never guessed, when an amount is no decimal', () => {
    expect(() => parseEnvelope(envelopeOf('order.failed', 1, { ...failedV1, amount: -5 }))).toThrow(
      InvalidEventError,
    );
  });

  it('refuses a version it does not know', () => {
    expect(() => parseEnvelope(envelopeOf('order.failed', 3, failedV1))).toThrow('unknown version 3');
    expect(() => parseEnvelope(envelopeOf('order.failed', undefined, failedV1))).toThrow('unknown version');
  });

  it('refuses the old shape under the new version', () => {
    expect(() => parseEnvelope(envelopeOf('order.failed', 2, failedV1))).toThrow(InvalidEventError);
  });
});
