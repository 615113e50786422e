import { Controller, Get, Header } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { TokenRevocations } from '@onramp/auth';

import { MerchantsRepository } from '../merchants/merchants.repository';

// Beside the JWKS and, like it, reached by the services directly (the gateway never forwards
// /.well-known): the lowest token version each rotated merchant still accepts. Merchants that never
// rotated are left out, so the list stays as small as the number of rotations.
@Controller('.well-known')
export class TokenRevocationsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsRepository,
  ) {}

  @Get('token-revocations')
  @Header('Cache-Control', 'no-store')
  async revocations(): Promise<TokenRevocations> {
    const rotated = await this.merchants.rotatedTokenVersions(this.dataSource.manager);
    return { minimumVersions: Object.fromEntries(rotated.map((m) => [m.id, m.tokenVersion])) };
  }
}
