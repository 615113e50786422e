import { loadPaymentIngestConfig, startPaymentIngest } from '@onramp/payments-feature';
import { runService } from '@onramp/service-runtime';

// The process edge: the only place payment-ingest reads its environment.
runService('payment-ingest', process.env, (env) => startPaymentIngest(loadPaymentIngestConfig(env)));
