import { createHmac } from 'node:crypto';

import { OnrampClient } from '@onramp/sdk';
import { ProgrammableReceiver } from '@onramp/testing';

import { PlacedOrder } from './order-driver';
import { BookedOrder } from './soak-ledger';
import { SoakMerchant } from './soak-merchant';
import { auditWebhooks } from './webhook-audit';
import { WebhookWatch } from './webhook-watch';

const SECRET = 'whsec_test';
const TX = '0x' + 'ab'.repeat(32);

function merchant(): SoakMerchant {
  const receiver = new ProgrammableReceiver();
  const client = new OnrampClient({
    baseUrl: 'http://x',
    kycUrl: 'http://x',
    merchantId: 'm',
    merchantSecret: 's',
  });
  return {
    merchantId: 'm',
    client,
    receiver,
    webhooks: new WebhookWatch(receiver),
    webhookSecret: SECRET,
    kycUserUuid: 'u',
  };
}

function order(m: SoakMerchant, uuid: string, credit: 'BOOKED' | 'REJECTED' = 'BOOKED'): PlacedOrder {
  return { index: 0, merchant: m, amount: 12.5, recipient: '0x1', credit, uuid, reference: 'RF00' };
}

function deliver(
  m: SoakMerchant,
  webhookId: string,
  fields: Record<string, unknown>,
  signature?: string,
): void {
  const body = JSON.stringify(fields);
  m.receiver.log.push({
    webhookId,
    orderUuid: String(fields.orderUuid),
    event: String(fields.event),
    status: String(fields.status),
    body,
    signature: signature ?? createHmac('sha256', SECRET).update(body).digest('hex'),
    answered: 200,
    at: 0,
  });
}

const completed = (uuid: string, extra: Record<string, unknown> = {}) => ({
  event: 'order.completed',
  status: 'COMPLETED',
  orderUuid: uuid,
  amount: 12.5,
  sentTokenAmount: 13.36,
  transactionHash: TX,
  ...extra,
});

const booked = (status: string): BookedOrder => ({
  status,
  amount: '12.50',
  transactionHash: status === 'COMPLETED' ? TX : null,
  sentTokenAmount: status === 'COMPLETED' ? '13.360000' : null,
});

describe('auditWebhooks', () => {
  it('passes one signed event per terminal order and counts a same-id redelivery without failing', () => {
    const m = merchant();
    deliver(m, 'e1', completed('o1'));
    deliver(m, 'e1', completed('o1'));
    const audit = auditWebhooks([order(m, 'o1')], new Map([['o1', booked('COMPLETED')]]));
    expect(audit.problems).toEqual([]);
    expect(audit).toMatchObject({ deliveries: 2, duplicateDeliveries: 1, lost: 0, nonTerminal: 0 });
  });

  it('counts an open order and a terminal order without webhook as lost', () => {
    const m = merchant();
    const audit = auditWebhooks(
      [order(m, 'o1'), order(m, 'o2')],
      new Map([
        ['o1', booked('CREATED')],
        ['o2', booked('COMPLETED')],
      ]),
    );
    expect(audit).toMatchObject({ lost: 2, nonTerminal: 1 });
    expect(audit.problems).toHaveLength(2);
  });

  it('fails a redelivery whose body differs, a second event id, a bad signature and a wrong outcome', () => {
    const m = merchant();
    deliver(m, 'e1', completed('o1'));
    deliver(m, 'e1', completed('o1', { amount: 99 }));
    deliver(m, 'e2', completed('o1'));
    deliver(m, 'e3', completed('o2'), '00'.repeat(32));
    const audit = auditWebhooks(
      [order(m, 'o1'), order(m, 'o2', 'REJECTED')],
      new Map([
        ['o1', booked('COMPLETED')],
        ['o2', booked('COMPLETED')],
      ]),
    );
    const text = audit.problems.join('\n');
    expect(text).toMatch(/event e1 delivered with 2 different bodies/);
    expect(text).toMatch(/2 different events/);
    expect(text).toMatch(/bad X-Webhook-Signature/);
    expect(text).toMatch(/credit REJECTED but the order is COMPLETED/);
  });

  it('fails a webhook that disagrees with the books on the payout', () => {
    const m = merchant();
    deliver(m, 'e1', completed('o1', { transactionHash: '0x' + 'cd'.repeat(32) }));
    const audit = auditWebhooks([order(m, 'o1')], new Map([['o1', booked('COMPLETED')]]));
    expect(audit.problems.join('\n')).toMatch(/says transaction 0xcdcd/);
  });
});
