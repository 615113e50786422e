import { serializeWebhookBody } from './webhook-body';

describe('serializeWebhookBody', () => {
  it('writes a completed body in docs/api.md order whatever order the fields arrive in', () => {
    const json = serializeWebhookBody({
      timestamp: 't',
      amount: 10.5,
      event: 'order.completed',
      status: 'COMPLETED',
      orderUuid: 'o',
    });
    expect(json).toBe(
      '{"event":"order.completed","status":"COMPLETED","orderUuid":"o","amount":10.5,"timestamp":"t"}',
    );
  });

  it('uses the failed order for order.failed and keeps null values', () => {
    const json = serializeWebhookBody({
      currency: 'EUR',
      sentTokenCurrency: null,
      event: 'order.failed',
      sentTokenAmount: 0,
    });
    expect(json).toBe(
      '{"event":"order.failed","sentTokenAmount":0,"sentTokenCurrency":null,"currency":"EUR"}',
    );
  });
});
