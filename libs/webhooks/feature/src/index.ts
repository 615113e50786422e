// webhook-dispatch as a library: apps/webhook-dispatch/src/main.ts, the embedded runner, the OpenAPI
// generator, the migrate tool and the service's integration tests all start here.
export {
  DEV_SECRET_ENCRYPTION_KEY,
  loadWebhookConfig,
  loadWebhookRuntime,
  WEBHOOK_IN_FLIGHT_DEFAULTS,
  WEBHOOKS_SCHEMA,
  webhookEnvSpec,
} from './config';
export type { WebhookDispatchConfig, WebhookEnv, WebhookRuntime } from './config';
export { SERVICE_DATABASE } from './database';
export { WebhookDispatchModule } from './webhook-dispatch.module';
export { startWebhookDispatch } from './start-webhook-dispatch';
// What the service's tests read back (views) and publish (events).
export type { DeliveryView } from './deliveries/delivery.view';
export type { AdminDeliveryView } from './deliveries/search-deliveries.usecase';
export type { OrderOutcomeEvent } from './deliveries/order-webhook-body.presenter';
