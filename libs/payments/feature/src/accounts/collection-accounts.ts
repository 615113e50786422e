import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';
import { CollectionAccount } from '@onramp/sepa';

import { CollectionAccountsRepository } from './collection-accounts.repository';

@Injectable()
export class CollectionAccounts implements OnApplicationBootstrap {
  private readonly log = new Logger(CollectionAccounts.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
    private readonly repository: CollectionAccountsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const a of this.config.collectionAccounts) {
      await this.repository.upsert(this.dataSource.manager, a);
    }
    this.log.log(`${this.config.collectionAccounts.length} collection account(s) configured`);
  }

  async find(
    iban: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CollectionAccount | null> {
    return this.repository.find(manager, iban);
  }
}
