import { Module } from '@nestjs/common';

import { adminAuditController, MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminDeliveriesController } from './admin/admin-deliveries.controller';
import { loadWebhookConfig, loadWebhookRuntime, WEBHOOK_CONFIG, WEBHOOKS_SCHEMA } from './config';
import { ListDeliveriesUseCase } from './deliveries/list-deliveries.usecase';
import { RecordDeliveryUseCase } from './deliveries/record-delivery.usecase';
import { RedeliverUseCase } from './deliveries/redeliver.usecase';
import { SearchDeliveriesUseCase } from './deliveries/search-deliveries.usecase';
import { AttemptRecorder } from './dispatch/attempt-recorder';
import { DeliveryClaimer } from './dispatch/delivery-claimer';
import { DeliveryDispatcher } from './dispatch/delivery-dispatcher';
import { WebhookSender } from './dispatch/webhook-sender';
import { MerchantWebhookController } from './endpoints/merchant-webhook.controller';
import { RotateWebhookSecretUseCase } from './endpoints/rotate-webhook-secret.usecase';
import { SetWebhookUrlUseCase } from './endpoints/set-webhook-url.usecase';
import { WebhookSecretCipher } from './endpoints/webhook-secret.cipher';
import { WebhookToolsController } from './endpoints/webhook-tools.controller';
import { WebhookToolsUseCase } from './endpoints/webhook-tools.usecase';
import { OrderOutcomeEventsHandler } from './events/order-outcome-events.handler';
import { SERVICE_DATABASE } from './database';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadWebhookConfig().env.DATABASE_URL,
      ...SERVICE_DATABASE,
      ...loadWebhookRuntime().database,
    })),
    MessagingModule.forService({
      schema: WEBHOOKS_SCHEMA,
      service: 'webhook-dispatch',
      transport: () => loadWebhookRuntime().transport,
    }),
    MerchantAuthModule.forRoot(() => loadWebhookRuntime().merchantAuth),
    ServiceCallersModule.forRoot(() => loadWebhookRuntime().callers),
    MetricsModule.forRoot(() => loadWebhookRuntime().metrics),
  ],
  controllers: [
    HealthController,
    MetricsController,
    MerchantWebhookController,
    WebhookToolsController,
    AdminDeliveriesController,
    adminAuditController(WEBHOOKS_SCHEMA, 'webhook-dispatch'),
  ],
  providers: [
    { provide: WEBHOOK_CONFIG, useFactory: () => loadWebhookConfig() },
    { provide: WebhookSender, useFactory: () => new WebhookSender() },
    WebhookSecretCipher,
    SetWebhookUrlUseCase,
    RotateWebhookSecretUseCase,
    WebhookToolsUseCase,
    ListDeliveriesUseCase,
    RedeliverUseCase,
    SearchDeliveriesUseCase,
    RecordDeliveryUseCase,
    OrderOutcomeEventsHandler,
    DeliveryClaimer,
    AttemptRecorder,
    DeliveryDispatcher,
  ],
})
export class AppModule {}
