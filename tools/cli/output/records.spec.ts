import { Delivery, merchantCredentials, Order, orderDetails, ordersTable, deliveriesTable } from './records';

const order: Order = {
  uuid: '0198a3c4-0000-7000-8000-000000000001',
  merchantId: '0b7d3c1e-5a7f-4d1e-9a53-2f6f1c1d2e3f',
  amount: 100.5,
  currency: 'EUR',
  status: 'FAILED',
  reference: 'RF18539007547034',
  recepientAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  kycUserUuid: '5d0f9c7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:05:00.000Z',
  failureReason: 'SEPA credit rejected by the bank',
  statusHistory: [
    { from: null, to: 'CREATED', reason: null, eventId: null, at: '2026-01-01T10:00:00.000Z' },
    {
      from: 'CREATED',
      to: 'FAILED',
      reason: 'SEPA credit rejected by the bank',
      eventId: '0198a3c4-0000-7000-8000-0000000000ee',
      at: '2026-01-01T10:05:00.000Z',
    },
  ],
};

describe('order output', () => {
  it('shows amounts with two decimals and the currency', () => {
    const table = ordersTable([order]);
    expect(table.split('\n')[0]).toMatch(/^ORDER UUID\s+MERCHANT\s+AMOUNT\s+STATUS\s+REFERENCE\s+CREATED$/);
    expect(table).toContain('100.50 EUR');
  });

  it('shows the details, then the status history oldest first', () => {
    const text = orderDetails(order);
    expect(text).toMatch(/^uuid\s+0198a3c4-0000-7000-8000-000000000001$/m);
    expect(text).toMatch(/^failureReason\s+SEPA credit rejected by the bank$/m);
    expect(text).toMatch(/^payedAmount\s+-$/m);
    const history = text.slice(text.indexOf('Status history:'));
    expect(history.indexOf('CREATED  FAILED')).toBeGreaterThan(history.indexOf('-     CREATED'));
  });
});

describe('delivery output', () => {
  it('shows the last status code, else the last error', () => {
    const base: Delivery = {
      id: 'd1',
      merchantId: 'm1',
      eventId: 'e1',
      eventType: 'order.completed',
      orderUuid: 'o1',
      status: 'PENDING',
      attempts: 2,
      lastStatusCode: null,
      lastError: 'timeout',
      createdAt: '2026-01-01T10:00:00.000Z',
      deliveredAt: null,
      nextAttemptAt: null,
    };
    const rows = deliveriesTable([base, { ...base, id: 'd2', lastStatusCode: 503 }]).split('\n');
    expect(rows[1]).toContain('timeout');
    expect(rows[2]).toContain('503');
  });
});

describe('merchantCredentials', () => {
  it('prints the secret it was asked for, and the name only when the API gave one', () => {
    const rotated = merchantCredentials({ merchantId: 'm1', merchantSecret: 's1' });
    expect(rotated).toBe('merchantId      m1\nmerchantSecret  s1\n');
    expect(merchantCredentials({ merchantId: 'm1', merchantSecret: 's1', name: 'Shop' })).toContain('name ');
  });
});
