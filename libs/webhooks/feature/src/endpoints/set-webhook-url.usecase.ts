import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { badRequest } from '@onramp/http';
import { checkWebhookUrl, generateWebhookSecret } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { DeliveryDispatcher } from '../dispatch/delivery-dispatcher';
import { lockMerchant } from '../persistence/merchant-lock.repository';
import { WebhookDeliveriesRepository } from '../deliveries/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
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
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async execute(merchantId: string, rawUrl: string): Promise<SetWebhookUrlResult> {
    const check = checkWebhookUrl(rawUrl, {
      sandbox: this.config.sandbox,
      allowedAddresses: this.config.allowedAddresses,
    });
    if (!check.ok)
      throw badRequest('the request has invalid fields', [{ field: 'url', message: check.reason }]);
    const url = check.url;

    const result = await this.dataSource.transaction(async (manager): Promise<SetWebhookUrlResult> => {
      await lockMerchant(manager, merchantId, 'exclusive');
      const existing = await this.endpoints.findForUpdate(manager, merchantId);
      let secret: string | undefined;
      if (existing) {
        await this.endpoints.changeUrl(manager, merchantId, url);
      } else {
        secret = generateWebhookSecret();
        await this.endpoints.insert(manager, merchantId, url, this.cipher.seal(merchantId, secret));
      }
      await this.deliveries.reopenWaiting(manager, merchantId);
      return secret ? { url, secret } : { url };
    });
    this.dispatcher.nudge();
    return result;
  }
}
