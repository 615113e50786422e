import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';
import { CollectionAccount } from '@onramp/sepa';

@Injectable()
export class CollectionAccounts implements OnApplicationBootstrap {
  private readonly log = new Logger(CollectionAccounts.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const a of this.config.collectionAccounts) {
      await this.dataSource.query(
        `INSERT INTO payments.collection_accounts (iban, bic, holder_name) VALUES ($1, $2, $3)
         ON CONFLICT (iban) DO UPDATE SET bic = EXCLUDED.bic, holder_name = EXCLUDED.holder_name, updated_at = now()`,
        [a.iban, a.bic, a.name],
      );
    }
    this.log.log(`${this.config.collectionAccounts.length} collection account(s) configured`);
  }

  async find(
    iban: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CollectionAccount | null> {
    const rows: { iban: string; bic: string | null; holder_name: string }[] = await manager.query(
      `SELECT iban, bic, holder_name FROM payments.collection_accounts WHERE iban = $1`,
      [iban],
    );
    const row = rows[0];
    return row ? { iban: row.iban, bic: row.bic, name: row.holder_name } : null;
  }
}
