import { DynamicModule, Module } from '@nestjs/common';

import { adminAuditController } from '@onramp/auth';
import { serviceInfrastructure } from '@onramp/service-runtime';

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
    const infrastructure = serviceInfrastructure(
      config.env.DATABASE_URL,
      SERVICE_DATABASE,
      config.runtime,
      'webhook-dispatch',
    );
    return {
      module: WebhookDispatchModule,
      imports: infrastructure.imports,
      controllers: [
        ...infrastructure.controllers,
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
