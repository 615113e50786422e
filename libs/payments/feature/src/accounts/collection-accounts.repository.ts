import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';
import { CollectionAccount } from '@onramp/sepa';

import { COLLECTION_ACCOUNTS } from '../persistence/payments-tables';

// The SQL of the platform's collection accounts (the configured ones, written at boot). Every method
// takes the caller's manager.
@Injectable()
export class CollectionAccountsRepository {
  // The configuration wins: an account configured again takes its new BIC and holder name.
  async upsert(db: EntityManager, account: CollectionAccount): Promise<void> {
    await db.query(
      `INSERT INTO ${COLLECTION_ACCOUNTS} (iban, bic, holder_name) VALUES ($1, $2, $3)
       ON CONFLICT (iban) DO UPDATE SET bic = EXCLUDED.bic, holder_name = EXCLUDED.holder_name, updated_at = now()`,
      [account.iban, account.bic, account.name],
    );
  }

  async find(db: EntityManager, iban: string): Promise<CollectionAccount | null> {
    const [row] = await queryRows<CollectionAccount>(
      db,
      `SELECT iban, bic, holder_name AS name FROM ${COLLECTION_ACCOUNTS} WHERE iban = $1`,
      [iban],
    );
    return row ? { iban: row.iban, bic: row.bic, name: row.name } : null;
  }
}
