import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { BANK_STATEMENTS } from '../persistence/payments-tables';

// The SQL of ingested bank statement files (one row per message id). Every method takes the
// caller's manager: the file's row commits with its credits.
@Injectable()
export class BankStatementsRepository {
  // False when a file with this message id was already ingested (a replay).
  async insertOnce(
    db: EntityManager,
    statement: { messageId: string; kind: string; version: string; entries: number },
  ): Promise<boolean> {
    const inserted = await queryRows(
      db,
      `INSERT INTO ${BANK_STATEMENTS} (message_id, kind, version, entries, credits_booked, credits_matched, duplicates)
       VALUES ($1, $2, $3, $4, 0, 0, 0) ON CONFLICT DO NOTHING RETURNING message_id`,
      [statement.messageId, statement.kind, statement.version, statement.entries],
    );
    return inserted.length > 0;
  }

  async recordCounts(
    db: EntityManager,
    messageId: string,
    counts: { creditsBooked: number; creditsMatched: number; duplicates: number },
  ): Promise<void> {
    await db.query(
      `UPDATE ${BANK_STATEMENTS} SET credits_booked = $2, credits_matched = $3, duplicates = $4 WHERE message_id = $1`,
      [messageId, counts.creditsBooked, counts.creditsMatched, counts.duplicates],
    );
  }
}
