import type { WebhookEndpoint } from '@onramp/sdk';

import { WebhookEndpointEntity } from './webhook-endpoint.entity';

// The endpoint as the SDK publishes it to merchants (it ships standalone, so it cannot import ours):
// a view the SDK does not describe fails the typecheck here.
export type WebhookEndpointView = WebhookEndpoint;

// Never carries the secret: it is shown only in the responses that create or rotate it.
export function toEndpointView(e: WebhookEndpointEntity): WebhookEndpointView {
  return {
    url: e.url,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    disabled: e.disabledAt !== null,
    ...(e.disabledAt
      ? { disabledAt: e.disabledAt.toISOString(), disabledReason: e.disabledReason ?? undefined }
      : {}),
  };
}
