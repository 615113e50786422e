import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { randomToken } from '@onramp/crypto';
import { notFound } from '@onramp/http';

import { MerchantEntity } from './merchant.entity';
import { SecretHasher } from './secret-hasher';

// The old secret stops working at once, and so do the tokens issued with it: the token version is
// bumped, and services refuse older versions as soon as they refresh the revocation list (seconds).
@Injectable()
export class RotateMerchantSecretUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: SecretHasher,
  ) {}

  async execute(merchantId: string): Promise<{ merchantId: string; merchantSecret: string }> {
    const secret = randomToken();
    const secretHash = await this.hasher.hash(secret);
    const result = await this.dataSource
      .getRepository(MerchantEntity)
      .update(
        { id: merchantId },
        { secretHash, updatedAt: new Date(), tokenVersion: () => '"token_version" + 1' },
      );
    if (!result.affected) throw notFound('merchant not found');
    return { merchantId, merchantSecret: secret };
  }
}
