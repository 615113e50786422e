import { CanActivate, Inject, Injectable } from '@nestjs/common';

import { notFound } from '@onramp/http';

import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';

// Outside sandbox mode the fake bank does not exist: 404 before authentication or validation.
@Injectable()
export class SandboxOnlyGuard implements CanActivate {
  constructor(@Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig) {}

  canActivate(): boolean {
    if (this.config.mode !== 'sandbox') throw notFound('no such route');
    return true;
  }
}
