import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { kycUserErased } from '../kyc-problem-types';
import { KycUserEntity } from './kyc-user.entity';
import { KycPiiCipher } from './kyc-pii';
import { KycUserResponse, presentKycUser } from './kyc-user.presenter';
import { KycUsersRepository } from './kyc-users.repository';

// The read side of the merchant API: reads outside a transaction, PII opened for the response.
// Reads are always scoped by merchant: another merchant's user is indistinguishable from none.
@Injectable()
export class KycUsersQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: KycUsersRepository,
    private readonly cipher: KycPiiCipher,
  ) {}

  async findOne(merchantId: string, uuid: string): Promise<KycUserEntity | undefined> {
    return this.users.find(this.dataSource.manager, merchantId, uuid);
  }

  async getOne(merchantId: string, uuid: string): Promise<KycUserResponse | null> {
    const user = await this.findOne(merchantId, uuid);
    if (user?.erasedAt) throw kycUserErased();
    return user ? this.present(user) : null;
  }

  async list(
    merchantId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: KycUserResponse[]; total: number }> {
    const { users, total } = await this.users.listPage(this.dataSource.manager, merchantId, limit, offset);
    return { items: users.map((u) => this.present(u)), total };
  }

  private present(user: KycUserEntity): KycUserResponse {
    return presentKycUser(user, this.cipher.open(user.uuid, user.pii));
  }
}
