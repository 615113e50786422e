import { addColumnMigration } from '@onramp/persistence';

// The trace of the payment.confirmed that created a settlement: the worker, which runs outside any
// request or event, continues it when it publishes transfer.*, so one order stays one trace.
export const SettlementTraceparent1763800300000 = addColumnMigration('SettlementTraceparent1763800300000', {
  table: 'settlement.settlements',
  column: 'traceparent',
  definition: 'TEXT',
});
