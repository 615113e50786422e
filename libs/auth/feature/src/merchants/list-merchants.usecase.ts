import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MerchantEntity } from './merchant.entity';

export interface MerchantSummary {
  merchantId: string;
  name: string;
  createdAt: string;
}

@Injectable()
export class ListMerchantsUseCase {
  constructor(private readonly dataSource: DataSource) {}

  async execute(page: {
    limit: number;
    offset: number;
  }): Promise<{ items: MerchantSummary[]; total: number }> {
    const [rows, total] = await this.dataSource.getRepository(MerchantEntity).findAndCount({
      order: { createdAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return {
      items: rows.map((m) => ({ merchantId: m.id, name: m.name, createdAt: m.createdAt.toISOString() })),
      total,
    };
  }
}
