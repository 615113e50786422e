import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { BANK_TRANSACTIONS } from '../persistence/payments-tables';

// The SQL of bank transactions (credits) that the event handlers write. Every method takes the
// caller's manager (the consumer's), so the change commits with the inbox mark.
@Injectable()
export class BankTransactionsRepository {
  // The credits of a FAILED order that the bank took back after they paid it: their payout was
  // stopped in time. Answers how many were marked (each once).
  async markPayoutStopped(db: EntityManager, orderUuid: string): Promise<number> {
    const stopped = await queryRows(
      db,
      `UPDATE ${BANK_TRANSACTIONS} SET payout_stopped_at = now(), updated_at = now()
       WHERE matched_order_uuid = $1 AND match_status = 'MATCHED' AND reversed_at IS NOT NULL AND payout_stopped_at IS NULL
       RETURNING id`,
      [orderUuid],
    );
    return stopped.length;
  }
}
