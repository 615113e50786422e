export { OnrampClient } from './lib/client/onramp-client';
export type { IdempotencyOptions, OnrampClientOptions } from './lib/client/onramp-client';
export type { Clock } from './lib/clock';
export type { ApiHost, ApiRequest, ApiResponse, FetchLike } from './lib/http/http-transport';
export { OnrampApiError } from './lib/http/onramp-api.error';
export type {
  CreateKycUserRequest,
  KycAddress,
  KycDocument,
  KycDocumentType,
  KycStatus,
  KycUser,
} from './lib/models/kyc-user.types';
export type { CreateOrderRequest, Order, OrderStatus } from './lib/models/order.types';
export type { Page, PageQuery } from './lib/models/page.types';
export type { FieldError, ProblemDetails } from './lib/models/problem.types';
export type { SandboxSepaCreditRequest, SandboxSepaCreditResult } from './lib/models/sandbox.types';
export type {
  OrderCompletedWebhook,
  OrderFailedWebhook,
  OrderWebhook,
  RotatedWebhookSecret,
  SetWebhookResult,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
} from './lib/models/webhook.types';
export { verifyStandardWebhook } from './lib/webhooks/verify-standard-webhook';
export type { StandardWebhookOptions, WebhookRequestHeaders } from './lib/webhooks/verify-standard-webhook';
export { parseWebhook, verifyWebhook, WebhookVerificationError } from './lib/webhooks/verify-webhook';
export type { HeaderValue, RawBody } from './lib/webhooks/verify-webhook';
