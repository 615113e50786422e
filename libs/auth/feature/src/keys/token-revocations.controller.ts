import { Controller, Get, Header } from '@nestjs/common';
import { DataSource, MoreThan } from 'typeorm';

import { TokenRevocations } from '@onramp/auth';

import { MerchantEntity } from '../merchants/merchant.entity';

// Beside the JWKS and, like it, reached by the services directly (the gateway never forwards
// /.well-known): the lowest token version each rotated merchant still accepts. Merchants that never
// rotated are left out, so the list stays as small as the number of rotations.
@Controller('.well-known')
export class TokenRevocationsController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('token-revocations')
  @Header('Cache-Control', 'no-store')
  async revocations(): Promise<TokenRevocations> {
    const rotated = await this.dataSource
      .getRepository(MerchantEntity)
      .find({ select: { id: true, tokenVersion: true }, where: { tokenVersion: MoreThan(0) } });
    return { minimumVersions: Object.fromEntries(rotated.map((m) => [m.id, m.tokenVersion])) };
  }
}
