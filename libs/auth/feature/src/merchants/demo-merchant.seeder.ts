import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { AUTH_CONFIG, AuthConfig } from '../config';
import { MerchantsRepository } from './merchants.repository';
import { SecretHasher } from './secret-hasher';

export const DEMO_MERCHANT_NAME = 'Demo merchant';

// Lets the launcher print fixed credentials: DEMO_MERCHANT_ID/SECRET always authenticate after boot.
@Injectable()
export class DemoMerchantSeeder implements OnModuleInit {
  private readonly log = new Logger(DemoMerchantSeeder.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsRepository,
    private readonly hasher: SecretHasher,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const demo = this.config.demoMerchant;
    if (!demo) return;
    if (this.config.mode === 'production') this.log.warn('DEMO_MERCHANT_ID is set in production mode');
    const existing = await this.merchants.find(this.dataSource.manager, demo.id);
    if (existing && (await this.hasher.verify(existing.secretHash, demo.secret))) return;
    await this.merchants.upsertWithSecret(
      this.dataSource.manager,
      demo.id,
      DEMO_MERCHANT_NAME,
      await this.hasher.hash(demo.secret),
    );
    this.log.log(`demo merchant ${demo.id} ready`);
  }
}
