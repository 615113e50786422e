import { applyDecorators, Controller, Post, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags, ApiWebhook } from '@nestjs/swagger';

import { OrderCompletedWebhookBody, OrderFailedWebhookBody } from './order-webhook.bodies';

// docs/api.md, Webhooks and libs/webhooks/domain webhook-headers.ts: every header of one attempt.
const WEBHOOK_HEADERS = [
  {
    name: 'X-Webhook-Signature',
    description:
      'Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the shared secret (the whole `whsec_...` string). Verify it before processing the event.',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'X-Webhook-Id',
    description: 'Id of the event; the same on every retry, so a receiver can drop duplicates.',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'X-Webhook-Timestamp',
    description: 'Unix time in seconds of this attempt; reject old ones to stop replays.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-id',
    description: 'Standard Webhooks: the same value as `X-Webhook-Id`.',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    description: 'Standard Webhooks: the same value as `X-Webhook-Timestamp`.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    description:
      'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}$' },
  },
];

const webhookDoc = (operationId: string, body: Type<unknown>, summary: string, description: string) =>
  applyDecorators(
    ApiOperation({ operationId, summary, description }),
    ...WEBHOOK_HEADERS.map((header) => ApiHeader({ ...header, required: true })),
    ApiBody({ type: body }),
    ApiResponse({ status: '2XX', description: 'Delivered. Answer within 10 seconds; the body is ignored.' }),
    ApiResponse({
      status: 410,
      description: 'Stop: the endpoint is disabled and later events wait until the URL is set again.',
    }),
    ApiResponse({
      status: 'default',
      description:
        'Anything else, a redirect (never followed) or no answer within 10 seconds is retried with exponential backoff and jitter for at least 72 hours, honouring `Retry-After`; after that the delivery is `DEAD` (see the delivery log).',
    }),
  );

// Never served: it only carries the OpenAPI 3.1 `webhooks` of the base host's document.
@ApiTags('Webhooks')
@Controller()
export class OrderWebhooksController {
  @Post('order.completed')
  @ApiWebhook('order.completed')
  @webhookDoc(
    'orderCompletedWebhook',
    OrderCompletedWebhookBody,
    'Order completed',
    'Sent when the payment is confirmed and the USDC transfer to the recipient address succeeded. POSTed as `application/json` to the URL set with `PUT /merchant/webhook`.',
  )
  orderCompleted(): void {
    return undefined;
  }

  @Post('order.failed')
  @ApiWebhook('order.failed')
  @webhookDoc(
    'orderFailedWebhook',
    OrderFailedWebhookBody,
    'Order failed',
    'Sent when the fiat payment failed, the order had no recipient address, or the on-chain USDC transfer failed. POSTed as `application/json` to the URL set with `PUT /merchant/webhook`.',
  )
  orderFailed(): void {
    return undefined;
  }
}
