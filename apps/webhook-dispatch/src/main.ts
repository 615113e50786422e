import { loadWebhookConfig, startWebhookDispatch } from '@onramp/webhooks-feature';
import { runService } from '@onramp/service-runtime';

// The process edge: the only place webhook-dispatch reads its environment.
runService('webhook-dispatch', process.env, (env) => startWebhookDispatch(loadWebhookConfig(env)));
