import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { conflict, notFound, Page, PageRequest } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { SETTLEMENT_SCHEMA } from '../config';
import {
  listHeldSettlements,
  lockSettlementForRelease,
  releaseHeldSettlement,
} from '../settlements/settlement.repository';

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

  async list(page: PageRequest): Promise<Page<HeldSettlementView>> {
    const { rows, total } = await listHeldSettlements(this.dataSource, page);
    return { items: rows.map((r) => ({ ...r, heldSince: r.heldSince.toISOString() })), total };
  }

  // 404: no settlement for this order; 409: there is one, but it is not HELD.
  async release(orderUuid: string, actor: AdminActor): Promise<{ orderUuid: string; state: 'PENDING' }> {
    return this.dataSource.transaction(async (manager) => {
      // Waits for a signing worker that holds the row; a HELD row is never signed while we hold it.
      const found = await lockSettlementForRelease(manager, orderUuid);
      if (!found) throw notFound('no settlement for this order');
      if (found.state !== 'HELD') throw conflict(`the settlement is not HELD (it is ${found.state})`);
      await releaseHeldSettlement(manager, orderUuid, actor.operator);
      await recordAdminAction(manager, SETTLEMENT_SCHEMA, actor, {
        action: 'settlement.release',
        target: orderUuid,
        before: { state: 'HELD', reason: found.reason, tokenAmount: found.tokenAmount },
        after: { state: 'PENDING', releasedBy: actor.operator },
      });
      return { orderUuid, state: 'PENDING' as const };
    });
  }
}
