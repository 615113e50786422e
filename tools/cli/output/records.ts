import type { Order as SdkOrder, WebhookDelivery } from '@onramp/sdk';

import { Cell, renderFields, renderTable } from './table';

// What the admin API answers (apps/*/src/admin): only the fields the CLI shows are typed.
export interface Merchant {
  merchantId: string;
  name: string;
  createdAt: string;
}

// A merchant's delivery as the SDK types it, with the merchant it belongs to (operators see all of them).
export type Delivery = WebhookDelivery & { merchantId: string };

export interface StatusChange {
  from: string | null;
  to: string;
  reason: string | null;
  eventId: string | null;
  at: string;
}

// An order as the SDK types it (`status` is what the CLI shows), with the merchant it belongs to
// (operators see all of them) and, from `orders get`, its status history.
export type Order = Omit<SdkOrder, 'orderStatus'> & { merchantId: string; statusHistory?: StatusChange[] };

// Amounts arrive as JSON numbers with at most 2 decimals (EUR); shown the way a bank shows them.
export const eur = (amount: number | undefined): string | undefined =>
  amount === undefined ? undefined : `${amount.toFixed(2)} EUR`;

export function merchantsTable(merchants: Merchant[]): string {
  return renderTable(
    ['MERCHANT ID', 'NAME', 'CREATED'],
    merchants.map((m) => [m.merchantId, m.name, m.createdAt]),
  );
}

export interface MerchantCredentials {
  merchantId: string;
  merchantSecret: string;
  name?: string; // create answers carry it, rotate-secret does not
  createdAt?: string;
}

export function merchantCredentials(m: MerchantCredentials): string {
  const fields: [string, Cell][] = [['merchantId', m.merchantId]];
  if (m.name !== undefined) fields.push(['name', m.name]);
  fields.push(['merchantSecret', m.merchantSecret]);
  if (m.createdAt !== undefined) fields.push(['createdAt', m.createdAt]);
  return renderFields(fields);
}

export function deliveriesTable(deliveries: Delivery[]): string {
  return renderTable(
    ['DELIVERY ID', 'MERCHANT', 'EVENT', 'ORDER', 'STATUS', 'TRIES', 'LAST', 'CREATED'],
    deliveries.map((d) => [
      d.id,
      d.merchantId,
      d.eventType,
      d.orderUuid,
      d.status,
      d.attempts,
      d.lastStatusCode ?? d.lastError,
      d.createdAt,
    ]),
  );
}

export function deliveryFields(d: Delivery): string {
  return renderFields([
    ['id', d.id],
    ['merchantId', d.merchantId],
    ['eventId', d.eventId],
    ['eventType', d.eventType],
    ['orderUuid', d.orderUuid],
    ['status', d.status],
    ['attempts', d.attempts],
    ['nextAttemptAt', d.nextAttemptAt],
  ]);
}

export function ordersTable(orders: Order[]): string {
  return renderTable(
    ['ORDER UUID', 'MERCHANT', 'AMOUNT', 'STATUS', 'REFERENCE', 'CREATED'],
    orders.map((o) => [o.uuid, o.merchantId, eur(o.amount), o.status, o.reference, o.createdAt]),
  );
}

export function orderDetails(o: Order): string {
  const fields = renderFields([
    ['uuid', o.uuid],
    ['merchantId', o.merchantId],
    ['status', o.status],
    ['amount', eur(o.amount)],
    ['reference', o.reference],
    ['iban / bic', `${o.iban} / ${o.bic}`],
    ['recipient', o.recepientAddress],
    ['kycUserUuid', o.kycUserUuid],
    ['payedAmount', eur(o.payedAmount)],
    ['sentTokenAmount', o.sentTokenAmount === undefined ? undefined : `${o.sentTokenAmount} USDC`],
    ['transactionHash', o.transactionHash],
    ['failureReason', o.failureReason],
    ['createdAt', o.createdAt],
    ['updatedAt', o.updatedAt],
  ]);
  const history = renderTable(
    ['AT', 'FROM', 'TO', 'REASON', 'EVENT'],
    (o.statusHistory ?? []).map((h) => [h.at, h.from, h.to, h.reason, h.eventId]),
  );
  return `${fields}\nStatus history:\n${history}`;
}
