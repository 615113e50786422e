import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { WebhookDispatchConfig } from './config';
import { WebhookDispatchModule } from './webhook-dispatch.module';

// The service listening on its port: main.ts runs it as a process, the embedded runner beside the
// others in one; both parse the config first (loadWebhookConfig) and pass it here.
export async function startWebhookDispatch(config: WebhookDispatchConfig): Promise<NestFastifyApplication> {
  return bootstrapHttpService(WebhookDispatchModule.forRoot(config), {
    name: 'webhook-dispatch',
    port: config.env.WEBHOOK_DISPATCH_PORT,
    host: config.env.HOST,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
  });
}
