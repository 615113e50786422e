import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { notFound, unprocessable } from '@onramp/http';
import { signingKeysOf, webhookHeaders } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { WebhookSender } from '../dispatch/webhook-sender';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookSecretCipher } from './webhook-secret.cipher';

export const TEST_EVENT_TYPE = 'webhook.test';

export interface TestEventResult {
  eventId: string;
  url: string;
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

// The dashboard's "reveal secret" and "send test event". The test event is signed exactly like a
// real delivery (same headers, same secret) but sent once, now, and not written to the delivery
// log: it belongs to no order, and a receiver that fails it should not get retries.
@Injectable()
export class WebhookToolsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly cipher: WebhookSecretCipher,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookDispatchConfig,
  ) {}

  async revealSecret(merchantId: string): Promise<{ url: string; secret: string }> {
    const endpoint = await this.endpoint(merchantId);
    return { url: endpoint.url, secret: this.open(endpoint) };
  }

  async sendTestEvent(merchantId: string): Promise<TestEventResult> {
    const endpoint = await this.endpoint(merchantId);
    const secret = this.open(endpoint);
    const eventId = randomUUID();
    const body = JSON.stringify({
      event: TEST_EVENT_TYPE,
      message: 'test event from the onramp dashboard',
      timestamp: new Date().toISOString(),
    });
    const headers = webhookHeaders({
      keys: signingKeysOf(secret),
      eventId,
      body,
      timestampSeconds: Math.floor(Date.now() / 1000),
    });
    const result = await this.sender.send({
      url: endpoint.url,
      headers,
      body,
      timeoutMs: this.config.timeoutMs,
      sandbox: this.config.sandbox,
      allowedAddresses: this.config.allowedAddresses,
    });
    return {
      eventId,
      url: endpoint.url,
      delivered: result.error === null,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
    };
  }

  private async endpoint(merchantId: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints.find(this.dataSource.manager, merchantId);
    if (!endpoint) throw notFound('no webhook endpoint is registered');
    return endpoint;
  }

  private open(endpoint: WebhookEndpointEntity): string {
    try {
      return this.cipher.open(endpoint.merchantId, endpoint.secretEnc);
    } catch {
      // A wrong or changed encryption key: rotating the secret seals a new one with the current key.
      throw unprocessable('the signing secret cannot be decrypted; rotate it');
    }
  }
}
