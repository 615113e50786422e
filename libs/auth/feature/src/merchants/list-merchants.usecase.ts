import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Page, PageRequest } from '@onramp/http';

import { MerchantsRepository } from './merchants.repository';

export interface MerchantSummary {
  merchantId: string;
  name: string;
  createdAt: string;
}

@Injectable()
export class ListMerchantsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsRepository,
  ) {}

  async execute(page: PageRequest): Promise<Page<MerchantSummary>> {
    const { merchants, total } = await this.merchants.listPage(
      this.dataSource.manager,
      page.limit,
      page.offset,
    );
    return {
      items: merchants.map((m) => ({ merchantId: m.id, name: m.name, createdAt: m.createdAt.toISOString() })),
      total,
    };
  }
}
