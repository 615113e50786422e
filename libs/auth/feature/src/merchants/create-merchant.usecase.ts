import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { randomToken } from '@onramp/crypto';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { AUTH_SCHEMA } from '../config';

import { MerchantEntity } from './merchant.entity';
import { MerchantsRepository } from './merchants.repository';
import { SecretHasher } from './secret-hasher';

export interface CreatedMerchant {
  merchantId: string;
  merchantSecret: string; // shown once; only its hash is kept
  name: string;
  createdAt: string;
}

@Injectable()
export class CreateMerchantUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsRepository,
    private readonly hasher: SecretHasher,
  ) {}

  async execute(input: { name: string }, actor: AdminActor): Promise<CreatedMerchant> {
    const secret = randomToken();
    const now = new Date();
    const merchant: MerchantEntity = {
      id: randomUUID(),
      name: input.name,
      secretHash: await this.hasher.hash(secret),
      tokenVersion: 0,
      createdAt: now,
      updatedAt: now,
    };
    await this.dataSource.transaction(async (manager) => {
      await this.merchants.insert(manager, merchant);
      await recordAdminAction(manager, AUTH_SCHEMA, actor, {
        action: 'merchant.create',
        target: merchant.id,
        after: { name: merchant.name },
      });
    });
    return {
      merchantId: merchant.id,
      merchantSecret: secret,
      name: merchant.name,
      createdAt: now.toISOString(),
    };
  }
}
