import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { AUTH_CONFIG, AuthConfig } from '../config';
import { MerchantEntity } from './merchant.entity';
import { SecretHasher } from './secret-hasher';

export const DEMO_MERCHANT_NAME = 'Demo merchant';

// Lets the launcher print fixed credentials: DEMO_MERCHANT_ID/SECRET always authenticate after boot.
@Injectable()
export class DemoMerchantSeeder implements OnModuleInit {
  private readonly log = new Logger(DemoMerchantSeeder.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: SecretHasher,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const demo = this.config.demoMerchant;
    if (!demo) return;
    if (this.config.mode === 'production') this.log.warn('DEMO_MERCHANT_ID is set in production mode');
    const existing = await this.dataSource.getRepository(MerchantEntity).findOneBy({ id: demo.id });
    if (existing && (await this.hasher.verify(existing.secretHash, demo.secret))) return;
    await this.dataSource.query(
      `INSERT INTO "auth"."merchants" ("id", "name", "secret_hash") VALUES ($1, $2, $3)
       ON CONFLICT ("id") DO UPDATE SET "secret_hash" = EXCLUDED."secret_hash", "updated_at" = now(),
         "token_version" = "merchants"."token_version" + 1`,
      [demo.id, DEMO_MERCHANT_NAME, await this.hasher.hash(demo.secret)],
    );
    this.log.log(`demo merchant ${demo.id} ready`);
  }
}
