// payment-ingest as a library: apps/payment-ingest/src/main.ts, the embedded runner, the OpenAPI
// generator, the migrate tool and the service's integration tests all start here.
export { loadPaymentIngestConfig, loadPaymentIngestRuntime, PAYMENTS_SCHEMA } from './config';
export type { PaymentIngestConfig, PaymentIngestRuntime } from './config';
export { SERVICE_DATABASE } from './database';
export { PaymentIngestModule } from './payment-ingest.module';
export { startPaymentIngest } from './start-payment-ingest';
// The providers the service's integration tests drive directly (app.get), to run an event or a
// sweep without waiting for the broker or the clock.
export { ExpireOrdersUseCase } from './expiry/expire-orders.usecase';
export { StatementInboxWatcher } from './inbox/statement-inbox.watcher';
export { KycEventsHandler } from './payer-names/kyc-events.handler';
export { KycErasureHandler } from './payer-names/kyc-erasure.handler';
export { OrderEventsHandler } from './references/order-events.handler';
// Watched by the sandbox credits' test for the statement that credits arriving together share.
export { BankTransactionsRepository } from './bank/bank-transactions.repository';
