import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { randomToken } from '@onramp/crypto';
import { notFound } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { AUTH_SCHEMA } from '../config';

import { MerchantsRepository } from './merchants.repository';
import { SecretHasher } from './secret-hasher';

// The old secret stops working at once, and so do the tokens issued with it: the token version is
// bumped, and services refuse older versions as soon as they refresh the revocation list (seconds).
@Injectable()
export class RotateMerchantSecretUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsRepository,
    private readonly hasher: SecretHasher,
  ) {}

  async execute(
    merchantId: string,
    actor: AdminActor,
  ): Promise<{ merchantId: string; merchantSecret: string }> {
    const secret = randomToken();
    const secretHash = await this.hasher.hash(secret);
    await this.dataSource.transaction(async (manager) => {
      const rotated = await this.merchants.rotateSecret(manager, merchantId, secretHash, new Date());
      if (!rotated) throw notFound('merchant not found');
      const { tokenVersion } = rotated;
      await recordAdminAction(manager, AUTH_SCHEMA, actor, {
        action: 'merchant.rotate-secret',
        target: merchantId,
        before: { tokenVersion: tokenVersion - 1 },
        after: { tokenVersion }, // the secret itself is never recorded
      });
    });
    return { merchantId, merchantSecret: secret };
  }
}
