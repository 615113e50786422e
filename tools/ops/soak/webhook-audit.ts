import { verifyWebhook } from '@onramp/sdk';
import { ReceivedDelivery } from '@onramp/testing';

import { PlacedOrder } from './order-driver';
import { BookedOrder } from './soak-ledger';

export interface WebhookAudit {
  deliveries: number; // requests the endpoints took (2xx)
  duplicateDeliveries: number; // the same X-Webhook-Id taken again: allowed (at-least-once), counted
  nonTerminal: number;
  lost: number; // orders never terminal + terminal orders whose webhook never arrived
  problems: string[];
}

const EVENT_OF: Record<string, string> = { COMPLETED: 'order.completed', FAILED: 'order.failed' };
const EXPECTED_STATUS = { BOOKED: 'COMPLETED', REJECTED: 'FAILED' } as const;

// Each placed order must be terminal with the outcome its credit asked for, and its merchant's
// endpoint must have taken exactly one event for it (one X-Webhook-Id), signed, of the right kind,
// saying what the books say; a redelivery of that event must carry the very same body.
export function auditWebhooks(placed: PlacedOrder[], books: Map<string, BookedOrder>): WebhookAudit {
  const audit: WebhookAudit = {
    deliveries: 0,
    duplicateDeliveries: 0,
    nonTerminal: 0,
    lost: 0,
    problems: [],
  };
  const byOrder = new Map<string, ReceivedDelivery[]>();
  const known = new Set(placed.map((o) => o.uuid));
  for (const merchant of new Set(placed.map((o) => o.merchant))) {
    for (const d of merchant.receiver.accepted()) {
      audit.deliveries++;
      if (!known.has(d.orderUuid))
        audit.problems.push(`webhook ${d.webhookId} for an order the soak never placed: ${d.orderUuid}`);
      if (!verifyWebhook(d.body, d.signature, merchant.webhookSecret))
        audit.problems.push(`webhook ${d.webhookId} of order ${d.orderUuid}: bad X-Webhook-Signature`);
      byOrder.set(d.orderUuid, [...(byOrder.get(d.orderUuid) ?? []), d]);
    }
  }
  for (const order of placed) {
    const booked = books.get(order.uuid);
    const status = booked?.status ?? 'MISSING';
    const mine = byOrder.get(order.uuid) ?? [];
    const ids = new Set(mine.map((d) => d.webhookId));
    audit.duplicateDeliveries += mine.length - ids.size;
    if (!EVENT_OF[status]) {
      audit.nonTerminal++;
      audit.lost++;
      audit.problems.push(`order ${order.uuid} is ${status}, not terminal`);
      if (mine.length > 0)
        audit.problems.push(`order ${order.uuid} is ${status} but a webhook was delivered`);
      continue;
    }
    if (status !== EXPECTED_STATUS[order.credit])
      audit.problems.push(`order ${order.uuid}: credit ${order.credit} but the order is ${status}`);
    if (ids.size === 0) {
      audit.lost++;
      audit.problems.push(`order ${order.uuid} is ${status} but its webhook never arrived`);
      continue;
    }
    if (ids.size > 1)
      audit.problems.push(`order ${order.uuid}: ${ids.size} different events (${[...ids].join(', ')})`);
    for (const id of ids) {
      const bodies = new Set(mine.filter((d) => d.webhookId === id).map((d) => d.body));
      if (bodies.size > 1)
        audit.problems.push(
          `order ${order.uuid}: event ${id} delivered with ${bodies.size} different bodies`,
        );
    }
    const problem = bodyProblem(mine[0].body, status, order, booked!);
    if (problem) audit.problems.push(`order ${order.uuid}: webhook ${mine[0].webhookId} ${problem}`);
  }
  return audit;
}

// What the merchant acts on must agree with the books: the event, the amount ordered, and for a
// completed order the payout's transaction and token amount.
function bodyProblem(
  raw: string,
  status: string,
  order: PlacedOrder,
  booked: BookedOrder,
): string | undefined {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return 'has a body that is not JSON';
  }
  if (body['event'] !== EVENT_OF[status] || body['status'] !== status)
    return `says ${String(body['event'])}/${String(body['status'])}, the order is ${status}`;
  if (body['amount'] !== order.amount)
    return `says amount ${String(body['amount'])}, ordered ${order.amount}`;
  if (status !== 'COMPLETED') return undefined;
  if (body['transactionHash'] !== booked.transactionHash)
    return `says transaction ${String(body['transactionHash'])}, the books ${booked.transactionHash}`;
  if (Number(body['sentTokenAmount']) !== Number(booked.sentTokenAmount))
    return `says ${String(body['sentTokenAmount'])} USDC sent, the books ${booked.sentTokenAmount}`;
  return undefined;
}
