import { buildOrderCompletedBody, buildOrderFailedBody, OrderFacts } from './webhook-bodies';

const order: OrderFacts = {
  uuid: '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b',
  kycUserUuid: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5',
  amount: '100.10',
  currency: 'EUR',
  reference: 'RF18539007547034',
  recipientAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
};
const clock = () => new Date('2025-03-01T12:00:00.123Z');

describe('buildOrderCompletedBody', () => {
  const body = buildOrderCompletedBody(
    order,
    {
      payedAmount: '100.10',
      payerAccountHolderName: 'Jane Doe',
      fxRateBase: '1.0800',
      fxRateEffective: '1.0692',
      fxRateUpdatedAt: '2025-03-01T11:59:00+00:00',
      sentTokenAmount: '107.02692',
      transactionHash: `0x${'ab'.repeat(32)}`,
    },
    clock,
  );

  it('has exactly the fields of the SPEC body, with JSON numbers for amounts', () => {
    expect(body).toEqual({
      event: 'order.completed',
      status: 'COMPLETED',
      orderUuid: order.uuid,
      userUuid: order.kycUserUuid,
      amount: 100.1,
      payedAmount: 100.1,
      payerAccountHolderName: 'Jane Doe',
      currency: 'EUR',
      fxRateBase: '1.0800',
      fxRateEffective: '1.0692',
      fxRateUpdatedAt: '2025-03-01T11:59:00.000Z',
      sentTokenAmount: 107.02692,
      sentTokenCurrency: 'USDC',
      reference: 'RF18539007547034',
      recipientAddress: order.recipientAddress,
      transactionHash: `0x${'ab'.repeat(32)}`,
      message: `Payment of 100.10 EUR received; 107.02692 USDC sent to ${order.recipientAddress}`,
      timestamp: '2025-03-01T12:00:00.123Z',
    });
  });

  it('serialises amounts without float noise', () => {
    expect(JSON.stringify(body)).toContain('"sentTokenAmount":107.02692');
    expect(JSON.stringify(body)).toContain('"amount":100.1,');
  });

  it('refuses an unreadable rate timestamp', () => {
    expect(() =>
      buildOrderCompletedBody(order, {
        payedAmount: '1',
        payerAccountHolderName: 'x',
        fxRateBase: '1',
        fxRateEffective: '1',
        fxRateUpdatedAt: 'yesterday',
        sentTokenAmount: '1',
        transactionHash: '0x',
      }),
    ).toThrow('not an ISO 8601 timestamp');
  });
});

describe('buildOrderFailedBody', () => {
  it('reports a failed payment: nothing sent, no transaction', () => {
    const body = buildOrderFailedBody(
      order,
      { payedAmount: '0', reason: 'SEPA credit rejected by the bank' },
      clock,
    );
    expect(body).toEqual({
      event: 'order.failed',
      status: 'FAILED',
      orderUuid: order.uuid,
      userUuid: order.kycUserUuid,
      amount: 100.1,
      payedAmount: 0,
      sentTokenAmount: 0,
      sentTokenCurrency: null,
      currency: 'EUR',
      reference: 'RF18539007547034',
      recipientAddress: order.recipientAddress,
      transactionHash: '',
      message: 'SEPA credit rejected by the bank',
      timestamp: '2025-03-01T12:00:00.123Z',
    });
    expect(body).not.toHaveProperty('payerAccountHolderName');
    expect(Object.keys(body).some((k) => k.startsWith('fxRate'))).toBe(false);
  });

  it('keeps the hash of a reverted transfer and the amount that was paid', () => {
    const hash = `0x${'cd'.repeat(32)}`;
    const body = buildOrderFailedBody(
      order,
      { payedAmount: '100.10', reason: 'transfer reverted', transactionHash: hash },
      clock,
    );
    expect(body.transactionHash).toBe(hash);
    expect(body.payedAmount).toBe(100.1);
    expect(body.sentTokenAmount).toBe(0);
    expect(body.sentTokenCurrency).toBeNull();
  });

  it('stamps the time of the injected clock in UTC with milliseconds', () => {
    const body = buildOrderFailedBody(
      order,
      { payedAmount: '0', reason: 'x' },
      () => new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 6)),
    );
    expect(body.timestamp).toBe('2030-01-02T03:04:05.006Z');
  });
});
