import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadWebhookConfig, loadWebhookRuntime } from './config';

// The app on its own: main.ts runs it as a process, the embedded runner beside the others in one.
export async function startWebhookDispatch(): Promise<NestFastifyApplication> {
  const config = loadWebhookConfig(); // fail fast, naming the bad variable
  const runtime = loadWebhookRuntime();
  return bootstrapHttpService(AppModule, {
    name: 'webhook-dispatch',
    port: config.env.WEBHOOK_DISPATCH_PORT,
    host: config.env.HOST,
    logging: runtime.logging,
    tracing: runtime.tracing,
  });
}
