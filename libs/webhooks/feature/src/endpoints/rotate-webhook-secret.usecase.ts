import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { notFound } from '@onramp/http';
import { generateWebhookSecret } from '@onramp/webhooks-domain';

import { queryRows } from '../persistence/query-rows';
import { WebhookSecretCipher } from './webhook-secret.cipher';

// The new secret signs every attempt from now on, including retries of older deliveries.
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: WebhookSecretCipher,
  ) {}

  async execute(merchantId: string): Promise<{ url: string; secret: string }> {
    const secret = generateWebhookSecret();
    const [row] = await queryRows<{ url: string }>(
      this.dataSource,
      `UPDATE "webhooks"."endpoints" SET secret_enc = $2, updated_at = now() WHERE merchant_id = $1 RETURNING url`,
      [merchantId, this.cipher.seal(merchantId, secret)],
    );
    if (!row) throw notFound('no webhook endpoint is registered');
    return { url: row.url, secret };
  }
}
