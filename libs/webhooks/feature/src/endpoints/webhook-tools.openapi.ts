import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSchema } from '@nestjs/swagger';

import { ApiProblemResponse } from '@onramp/openapi';

import { WebhookSecretResponse } from './webhook-endpoint.response';
import { TestEventResult } from './webhook-tools.usecase';

@ApiSchema({ name: 'WebhookTestResult', description: 'What the endpoint answered to the test event.' })
export class WebhookTestResultResponse implements TestEventResult {
  @ApiProperty({ description: 'The `X-Webhook-Id` / `webhook-id` of the test event.', format: 'uuid' })
  eventId!: string;

  @ApiProperty({ format: 'uri', example: 'https://merchant.example/hooks/onramp' })
  url!: string;

  @ApiProperty({ description: 'True when the endpoint answered 2xx.', example: true })
  delivered!: boolean;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The HTTP status, null when none arrived.',
    example: 200,
  })
  statusCode!: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why it failed, null on 2xx.', example: null })
  error!: string | null;

  @ApiProperty({ type: 'integer', example: 42 })
  durationMs!: number;
}

const noEndpoint = () =>
  ApiProblemResponse(404, 'No webhook endpoint is registered; set one with `PUT /merchant/webhook`.', {
    detail: 'no webhook endpoint is registered',
  });

export const ApiRevealWebhookSecret = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'revealWebhookSecret',
      summary: 'Reveal the signing secret',
      description:
        'The current signing secret, for a merchant who lost it (the sandbox dashboard shows it on request). Needs the merchant token like every call; rotate it if it may have leaked.',
    }),
    ApiOkResponse({ description: 'The URL and its current secret.', type: WebhookSecretResponse }),
    noEndpoint(),
  );

export const ApiSendTestEvent = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'sendWebhookTestEvent',
      summary: 'Send a test event',
      description:
        'POSTs `{"event":"webhook.test","message":...,"timestamp":...}` to the endpoint now, signed exactly like a real delivery (`X-Webhook-Signature`, `X-Webhook-Id`, `X-Webhook-Timestamp` and the `webhook-*` headers). Sent once, never retried and not written to the delivery log; the answer says what the endpoint replied.',
    }),
    ApiOkResponse({
      description: 'The attempt was made (see `delivered`).',
      type: WebhookTestResultResponse,
    }),
    noEndpoint(),
  );
