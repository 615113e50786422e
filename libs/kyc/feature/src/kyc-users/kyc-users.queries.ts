import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { notFound, Page, PageRequest } from '@onramp/http';

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

  // 404 for none (or another merchant's), 410 for a user whose personal data was erased.
  async getOne(merchantId: string, uuid: string): Promise<KycUserResponse> {
    const user = await this.findOne(merchantId, uuid);
    if (!user) throw notFound('KYC user not found');
    if (user.erasedAt) throw kycUserErased();
    return this.present(user);
  }

  async list(merchantId: string, page: PageRequest): Promise<Page<KycUserResponse>> {
    const { limit, offset } = page;
    const { users, total } = await this.users.listPage(this.dataSource.manager, merchantId, limit, offset);
    return { items: users.map((u) => this.present(u)), total };
  }

  private present(user: KycUserEntity): KycUserResponse {
    return presentKycUser(user, this.cipher.open(user.uuid, user.pii));
  }
}
