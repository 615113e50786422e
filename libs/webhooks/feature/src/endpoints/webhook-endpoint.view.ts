import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export interface WebhookEndpointView {
  url: string;
  createdAt: string;
  updatedAt: string;
  disabled: boolean;
  disabledAt?: string;
  disabledReason?: string;
}

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
