import { IsString, IsUUID, Matches } from 'class-validator';

import { DECIMAL_PATTERN } from '../order-created/order-created.event';

// The bank took back a credit that had paid an order (a camt reversal: recall, fraud report, the
// payer's bank's return). Settlement stops the payout if it is not signed yet, else it is too late
// and the credit stays flagged for the operator.
export class PaymentReversedV1 {
  @IsUUID()
  orderUuid!: string;

  @IsUUID()
  bankTransactionId!: string; // the credit that was taken back

  @IsString()
  reference!: string;

  @Matches(DECIMAL_PATTERN)
  amount!: string; // EUR taken back

  @IsString()
  reason!: string; // the return reason code (e.g. FR01, AC04), or "reversal" when the bank gave none
}
