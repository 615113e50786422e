import { applyDecorators } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';

import {
  ApiJsonBodyProblems,
  ApiPaginatedResponse,
  ApiProblemResponse,
  ApiValidationProblem,
} from '@onramp/openapi';

import { DeliveryResponse } from '../deliveries/delivery.response';
import {
  WebhookEndpointResponse,
  WebhookEndpointSetResponse,
  WebhookSecretResponse,
} from './webhook-endpoint.response';

const noEndpoint = () =>
  ApiProblemResponse(404, 'No webhook endpoint is registered; set one with `PUT /merchant/webhook`.', {
    detail: 'no webhook endpoint is registered',
  });

// API documentation of /merchant/webhook* (tools/openapi builds the documents from it).
export const ApiSetWebhookUrl = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'setWebhookUrl',
      summary: 'Set the webhook URL',
      description:
        'Subscribes to `order.completed` and `order.failed` (see `webhooks`). The first call creates the endpoint and returns its signing `secret`, once; later calls change the URL and keep the secret. Deliveries waiting for an endpoint (or for a new URL after a 410) start again towards this URL.',
    }),
    ApiOkResponse({ description: 'The endpoint is set.', type: WebhookEndpointSetResponse }),
    ApiValidationProblem({ field: 'url', message: 'url must use https' }),
    ApiJsonBodyProblems(),
  );

export const ApiGetWebhook = () =>
  applyDecorators(
    ApiOperation({ operationId: 'getWebhook', summary: 'Get the webhook endpoint' }),
    ApiOkResponse({ description: 'The endpoint, without its secret.', type: WebhookEndpointResponse }),
    noEndpoint(),
  );

export const ApiRotateWebhookSecret = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret',
      description:
        'Generates a new secret; it signs every attempt from now on, retries of older events included.',
    }),
    ApiOkResponse({ description: 'The new secret, shown only here.', type: WebhookSecretResponse }),
    noEndpoint(),
  );

export const ApiListDeliveries = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'listWebhookDeliveries',
      summary: 'List webhook deliveries',
      description:
        'The delivery log: every event sent (or still to send) to the calling merchant, paginated.',
    }),
    ApiPaginatedResponse(DeliveryResponse, {
      description: 'One page of deliveries.',
      path: '/merchant/webhook/deliveries',
    }),
  );

export const ApiRedeliver = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'redeliverWebhook',
      summary: 'Redeliver an event',
      description: 'Sends the same body with the same event id again now, with a fresh retry window.',
    }),
    ApiParam({
      name: 'id',
      description: 'The delivery `id` from the delivery log.',
      schema: { type: 'string', format: 'uuid' },
    }),
    ApiAcceptedResponse({
      description: 'The delivery is queued (status `PENDING`).',
      type: DeliveryResponse,
    }),
    ApiProblemResponse(400, 'The delivery id is not a UUID.', { detail: 'delivery id must be a UUID' }),
    ApiProblemResponse(404, 'No delivery with this id belongs to the calling merchant.', {
      detail: 'no such webhook delivery',
    }),
    ApiProblemResponse(
      422,
      'No webhook URL is registered, or the endpoint is disabled after a 410 (set the URL again).',
      {
        detail: 'no webhook URL is registered; set one with PUT /merchant/webhook',
      },
    ),
  );
