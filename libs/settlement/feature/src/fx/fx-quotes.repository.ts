import { EntityManager } from 'typeorm';

import { FxQuote } from '@onramp/settlement-domain';

import { SETTLEMENT_SCHEMA } from '../config';

export const FX_QUOTES = `"${SETTLEMENT_SCHEMA}"."fx_quotes"`;

export interface FxQuoteRow {
  orderUuid: string;
  payedAmount: string;
  fee: string;
  quote: FxQuote & { source: string };
}

// The columns of an fx_quotes row in the order fxQuoteValues gives them.
export const FX_QUOTE_COLUMNS =
  'order_uuid, source, fx_rate_base, fee, fx_rate_effective, rate_updated_at, payed_amount, token_amount';

export function fxQuoteValues(row: FxQuoteRow): unknown[] {
  const q = row.quote;
  return [
    row.orderUuid,
    q.source,
    q.fxRateBase,
    row.fee,
    q.fxRateEffective,
    q.fxRateUpdatedAt,
    row.payedAmount,
    q.sentTokenAmount,
  ];
}

// Audit trail: which rate, fee and source priced which order.
export async function recordFxQuote(manager: EntityManager, row: FxQuoteRow): Promise<void> {
  await manager.query(
    `INSERT INTO ${FX_QUOTES} (${FX_QUOTE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    fxQuoteValues(row),
  );
}
