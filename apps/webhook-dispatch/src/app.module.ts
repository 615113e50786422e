import { Module } from '@nestjs/common';

import { AdminKeyModule, MerchantAuthModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminDeliveriesController } from './admin/admin-deliveries.controller';
import { loadWebhookConfig, WEBHOOK_CONFIG, WEBHOOKS_SCHEMA } from './config';
import { DeliveryAttemptEntity } from './deliveries/delivery-attempt.entity';
import { ListDeliveriesUseCase } from './deliveries/list-deliveries.usecase';
import { RecordDeliveryUseCase } from './deliveries/record-delivery.usecase';
import { RedeliverUseCase } from './deliveries/redeliver.usecase';
import { SearchDeliveriesUseCase } from './deliveries/search-deliveries.usecase';
import { WebhookDeliveryEntity } from './deliveries/webhook-delivery.entity';
import { AttemptRecorder } from './dispatch/attempt-recorder';
import { DeliveryClaimer } from './dispatch/delivery-claimer';
import { DeliveryDispatcher } from './dispatch/delivery-dispatcher';
import { WebhookSender } from './dispatch/webhook-sender';
import { MerchantWebhookController } from './endpoints/merchant-webhook.controller';
import { RotateWebhookSecretUseCase } from './endpoints/rotate-webhook-secret.usecase';
import { SetWebhookUrlUseCase } from './endpoints/set-webhook-url.usecase';
import { WebhookEndpointEntity } from './endpoints/webhook-endpoint.entity';
import { WebhookSecretCipher } from './endpoints/webhook-secret.cipher';
import { OrderEventsHandler } from './events/order-events.handler';
import { CreateWebhooksSchema1767225600000 } from './migrations/1767225600000-create-webhooks-schema';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadWebhookConfig().env.DATABASE_URL,
      schema: WEBHOOKS_SCHEMA,
      entities: [WebhookEndpointEntity, WebhookDeliveryEntity, DeliveryAttemptEntity],
      migrations: [CreateWebhooksSchema1767225600000],
    })),
    MessagingModule.forService({ schema: WEBHOOKS_SCHEMA, service: 'webhook-dispatch' }),
    MerchantAuthModule,
    AdminKeyModule.fromEnv(),
  ],
  controllers: [HealthController, MerchantWebhookController, AdminDeliveriesController],
  providers: [
    { provide: WEBHOOK_CONFIG, useFactory: () => loadWebhookConfig() },
    { provide: WebhookSender, useFactory: () => new WebhookSender() },
    WebhookSecretCipher,
    SetWebhookUrlUseCase,
    RotateWebhookSecretUseCase,
    ListDeliveriesUseCase,
    RedeliverUseCase,
    SearchDeliveriesUseCase,
    RecordDeliveryUseCase,
    OrderEventsHandler,
    DeliveryClaimer,
    AttemptRecorder,
    DeliveryDispatcher,
  ],
})
export class AppModule {}
