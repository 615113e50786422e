import { EntityManager } from 'typeorm';

import { FxQuote } from '@onramp/settlement-domain';

import { SETTLEMENT_SCHEMA } from '../config';

// Audit trail: which rate, fee and source priced which order.
export async function recordFxQuote(
  manager: EntityManager,
  row: { orderUuid: string; payedAmount: string; fee: string; quote: FxQuote & { source: string } },
): Promise<void> {
  const q = row.quote;
  await manager.query(
    `INSERT INTO "${SETTLEMENT_SCHEMA}"."fx_quotes"
       (order_uuid, source, fx_rate_base, fee, fx_rate_effective, rate_updated_at, payed_amount, token_amount)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.orderUuid,
      q.source,
      q.fxRateBase,
      row.fee,
      q.fxRateEffective,
      q.fxRateUpdatedAt,
      row.payedAmount,
      q.sentTokenAmount,
    ],
  );
}
