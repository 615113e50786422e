import { startWebhookDispatch } from './bootstrap';

startWebhookDispatch().catch((err: unknown) => {
  process.stderr.write(
    `webhook-dispatch failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
