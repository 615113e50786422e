import { DynamicModule, Module } from '@nestjs/common';

import { adminAuditController, MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminDeliveriesController } from './admin/admin-deliveries.controller';
import { WEBHOOK_CONFIG, WebhookDispatchConfig, WEBHOOKS_SCHEMA } from './config';
import { SERVICE_DATABASE } from './database';
import { ListDeliveriesUseCase } from './deliveries/list-deliveries.usecase';
import { RecordDeliveryUseCase } from './deliveries/record-delivery.usecase';
import { RedeliverUseCase } from './deliveries/redeliver.usecase';
import { PayerDataCipher } from './deliveries/payer-data.cipher';
import { SearchDeliveriesUseCase } from './deliveries/search-deliveries.usecase';
import { WebhookDeliveriesRepository } from './deliveries/webhook-deliveries.repository';
import { AttemptRecorder } from './dispatch/attempt-recorder';
import { DeliveryDispatcher } from './dispatch/delivery-dispatcher';
import { WebhookSender } from './dispatch/webhook-sender';
import { MerchantWebhookController } from './endpoints/merchant-webhook.controller';
import { RotateWebhookSecretUseCase } from './endpoints/rotate-webhook-secret.usecase';
import { SetWebhookUrlUseCase } from './endpoints/set-webhook-url.usecase';
import { WebhookSecretCipher } from './endpoints/webhook-secret.cipher';
import { WebhookToolsController } from './endpoints/webhook-tools.controller';
import { WebhookToolsUseCase } from './endpoints/webhook-tools.usecase';
import { WebhookEndpointsRepository } from './endpoints/webhook-endpoints.repository';
import { OrderOutcomeEventsHandler } from './events/order-outcome-events.handler';

// The whole service as one module, built from a parsed config: main.ts, the embedded runner and the
// tests each pass their own, so nothing here reads the environment.
@Module({})
export class WebhookDispatchModule {
  static forRoot(config: WebhookDispatchConfig): DynamicModule {
    const { runtime } = config;
    return {
      module: WebhookDispatchModule,
      imports: [
        typeOrmRootFor({ url: config.env.DATABASE_URL, ...SERVICE_DATABASE, ...runtime.database }),
        MessagingModule.forService({
          schema: WEBHOOKS_SCHEMA,
          service: 'webhook-dispatch',
          transport: runtime.transport,
        }),
        MerchantAuthModule.forRoot(runtime.merchantAuth),
        ServiceCallersModule.forRoot(runtime.callers),
        MetricsModule.forRoot(runtime.metrics),
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
        { provide: WEBHOOK_CONFIG, useValue: config },
        { provide: WebhookSender, useFactory: () => new WebhookSender() },
        WebhookEndpointsRepository,
        WebhookDeliveriesRepository,
        WebhookSecretCipher,
        PayerDataCipher,
        SetWebhookUrlUseCase,
        RotateWebhookSecretUseCase,
        WebhookToolsUseCase,
        ListDeliveriesUseCase,
        RedeliverUseCase,
        SearchDeliveriesUseCase,
        RecordDeliveryUseCase,
        OrderOutcomeEventsHandler,
        AttemptRecorder,
        DeliveryDispatcher,
      ],
    };
  }
}
