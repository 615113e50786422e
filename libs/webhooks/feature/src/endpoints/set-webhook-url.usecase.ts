import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { badRequest } from '@onramp/http';
import { checkWebhookUrl, generateWebhookSecret } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { DeliveryDispatcher } from '../dispatch/delivery-dispatcher';
import { lockMerchant } from '../persistence/merchant-lock';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookSecretCipher } from './webhook-secret.cipher';

export type SetWebhookUrlResult = { url: string; secret: string } | { url: string };

// PUT /merchant/webhook: creates the endpoint (and its secret, shown once) or changes its URL,
// keeping the secret. Either way the merchant's waiting deliveries (NO_ENDPOINT, or DISABLED after a
// 410) start a fresh retry window towards the new URL.
@Injectable()
export class SetWebhookUrlUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: WebhookSecretCipher,
    private readonly dispatcher: DeliveryDispatcher,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookDispatchConfig,
  ) {}

  async execute(merchantId: string, rawUrl: string): Promise<SetWebhookUrlResult> {
    const check = checkWebhookUrl(rawUrl, { sandbox: this.config.sandbox });
    if (!check.ok)
      throw badRequest('the request has invalid fields', [{ field: 'url', message: check.reason }]);
    const url = check.url;

    const result = await this.dataSource.transaction(async (manager): Promise<SetWebhookUrlResult> => {
      await lockMerchant(manager, merchantId, 'exclusive');
      const repo = manager.getRepository(WebhookEndpointEntity);
      const existing = await repo.findOne({ where: { merchantId }, lock: { mode: 'pessimistic_write' } });
      let secret: string | undefined;
      if (existing) {
        await manager.query(
          `UPDATE "webhooks"."endpoints" SET url = $2, disabled_at = NULL, disabled_reason = NULL, updated_at = now()
           WHERE merchant_id = $1`,
          [merchantId, url],
        );
      } else {
        secret = generateWebhookSecret();
        await manager.query(
          `INSERT INTO "webhooks"."endpoints" (merchant_id, url, secret_enc) VALUES ($1, $2, $3)`,
          [merchantId, url, this.cipher.seal(merchantId, secret)],
        );
      }
      await manager.query(
        `UPDATE "webhooks"."deliveries" SET status = 'PENDING', next_attempt_at = now(), retry_from = now()
         WHERE merchant_id = $1 AND status IN ('NO_ENDPOINT', 'DISABLED')`,
        [merchantId],
      );
      return secret ? { url, secret } : { url };
    });
    this.dispatcher.nudge();
    return result;
  }
}
