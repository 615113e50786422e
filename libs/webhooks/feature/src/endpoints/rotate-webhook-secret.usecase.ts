import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { notFound } from '@onramp/http';
import { generateWebhookSecret } from '@onramp/webhooks-domain';

import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookSecretCipher } from './webhook-secret.cipher';

// The new secret signs every attempt from now on, including retries of older deliveries.
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: WebhookSecretCipher,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async execute(merchantId: string): Promise<{ url: string; secret: string }> {
    const secret = generateWebhookSecret();
    const url = await this.endpoints.replaceSecret(
      this.dataSource.manager,
      merchantId,
      this.cipher.seal(merchantId, secret),
    );
    if (url === undefined) throw notFound('no webhook endpoint is registered');
    return { url, secret };
  }
}
