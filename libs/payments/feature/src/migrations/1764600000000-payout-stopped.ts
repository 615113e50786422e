import { addColumnMigration } from '@onramp/persistence';

// A credit the bank took back after it had paid an order, whose payout settlement then stopped (the
// order FAILED, nothing was sent): set when order.failed arrives for it, so the operator's list of
// reversed credits tells a stopped payout from one that went ahead unfunded.
export const PayoutStopped1764600000000 = addColumnMigration('PayoutStopped1764600000000', {
  table: 'payments.bank_transactions',
  column: 'payout_stopped_at',
  definition: 'TIMESTAMPTZ',
});
