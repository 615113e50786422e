import { Controller, Get, Header } from '@nestjs/common';

import { PublicJwk } from './key-material';
import { SigningKeysService } from './signing-keys.service';

// Reached by the services directly (never through the gateway); verifiers refetch on an unknown kid.
@Controller('.well-known')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=60')
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    return { keys: await this.keys.publishedKeys() };
  }
}
