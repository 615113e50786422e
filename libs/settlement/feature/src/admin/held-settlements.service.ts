import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { conflict, notFound } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { SETTLEMENT_SCHEMA } from '../config';

// A settlement HELD over a payout cap, as an operator sees it.
export interface HeldSettlementView {
  orderUuid: string;
  merchantId: string;
  recipientAddress: string;
  tokenAmount: string | null; // USDC, a decimal string
  reason: string | null;
  heldSince: string;
}

// Settlements HELD over a payout cap: listed, and released one at a time past its caps by an
// operator. Released: back to PENDING with released_by set, so the next signing pass signs it
// whatever the caps say; the release and its audit record commit together.
@Injectable()
export class HeldSettlementsService {
  constructor(private readonly dataSource: DataSource) {}

  async list(page: { limit: number; offset: number }): Promise<{ items: HeldSettlementView[]; total: number }> {
    const [counted] = await this.dataSource.query<Array<{ total: string }>>(
      `SELECT count(*)::text AS total FROM "${SETTLEMENT_SCHEMA}"."settlements" WHERE state = 'HELD'`,
    );
    const rows = await this.dataSource.query<
      Array<{
        order_uuid: string;
        merchant_id: string;
        recipient_address: string;
        token_amount: string | null;
        last_error: string | null;
        updated_at: Date;
      }>
    >(
      `SELECT order_uuid, merchant_id, recipient_address, token_amount::text, last_error, updated_at
       FROM "${SETTLEMENT_SCHEMA}"."settlements" WHERE state = 'HELD' ORDER BY created_at, order_uuid LIMIT $1 OFFSET $2`,
      [page.limit, page.offset],
    );
    const items = rows.map((r) => ({
      orderUuid: r.order_uuid,
      merchantId: r.merchant_id,
      recipientAddress: r.recipient_address,
      tokenAmount: r.token_amount,
      reason: r.last_error,
      heldSince: r.updated_at.toISOString(),
    }));
    return { items, total: Number(counted?.total ?? 0) };
  }

  // 404: no settlement for this order; 409: there is one, but it is not HELD.
  async release(orderUuid: string, actor: AdminActor): Promise<{ orderUuid: string; state: 'PENDING' }> {
    return this.dataSource.transaction(async (manager) => {
      // Waits for a signing worker that holds the row; a HELD row is never signed while we hold it.
      const [row] = await manager.query<
        Array<{ state: string; last_error: string | null; token_amount: string | null }>
      >(
        `SELECT state, last_error, token_amount::text FROM "${SETTLEMENT_SCHEMA}"."settlements"
         WHERE order_uuid = $1 FOR UPDATE`,
        [orderUuid],
      );
      if (!row) throw notFound('no settlement for this order');
      if (row.state !== 'HELD') throw conflict(`the settlement is not HELD (it is ${row.state})`);
      await manager.query(
        `UPDATE "${SETTLEMENT_SCHEMA}"."settlements"
         SET state = 'PENDING', released_by = $2, last_error = $3, next_attempt_at = now(), updated_at = now()
         WHERE order_uuid = $1`,
        [orderUuid, actor.operator, `released past the payout caps by ${actor.operator}`],
      );
      await recordAdminAction(manager, SETTLEMENT_SCHEMA, actor, {
        action: 'settlement.release',
        target: orderUuid,
        before: { state: 'HELD', reason: row.last_error, tokenAmount: row.token_amount },
        after: { state: 'PENDING', releasedBy: actor.operator },
      });
      return { orderUuid, state: 'PENDING' as const };
    });
  }
}
