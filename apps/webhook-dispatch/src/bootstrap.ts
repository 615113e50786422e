import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadWebhookConfig } from './config';

// The app on its own: main.ts runs it as a process, the embedded runner beside the others in one.
export async function startWebhookDispatch(): Promise<NestFastifyApplication> {
  const config = loadWebhookConfig(); // fail fast, naming the bad variable
  return bootstrapHttpService(AppModule, {
    name: 'webhook-dispatch',
    port: config.env.WEBHOOK_DISPATCH_PORT,
    host: config.env.HOST,
    logLevel: config.env.LOG_LEVEL,
  });
}
