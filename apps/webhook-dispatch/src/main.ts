import 'reflect-metadata';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadWebhookConfig } from './config';

async function main(): Promise<void> {
  const config = loadWebhookConfig(); // fail fast, naming the bad variable
  await bootstrapHttpService(AppModule, {
    name: 'webhook-dispatch',
    port: config.env.WEBHOOK_DISPATCH_PORT,
    host: config.env.HOST,
    logLevel: config.env.LOG_LEVEL,
  });
}

main().catch((err: unknown) => {
  process.stderr.write(
    `webhook-dispatch failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
