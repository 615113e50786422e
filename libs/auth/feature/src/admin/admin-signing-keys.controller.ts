import { Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { AdminActor } from '@onramp/persistence';

import { SigningKeysService, SigningKeySummary } from '../keys/signing-keys.service';

// Key rotation: the new key signs from now on; the old one stays in the JWKS for the retention window.
@Controller('admin/signing-keys')
@UseGuards(AdminGuard)
export class AdminSigningKeysController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get()
  list(): Promise<SigningKeySummary[]> {
    return this.keys.list();
  }

  @Post('rotate')
  @HttpCode(200)
  rotate(@CurrentAdminActor() actor: AdminActor): Promise<SigningKeySummary> {
    return this.keys.rotate(actor);
  }
}
