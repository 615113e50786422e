import { Equals, IsISO8601, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';

import { DECIMAL_PATTERN } from '../order-created/order-created.event';
import { OrderOutcomeFields } from '../order-outcome/order-outcome.fields';

// The facts of a failed order: every field the order.failed webhook body needs (docs/api.md,
// Events), amounts as decimal strings. webhook-dispatch presents it as the body.
// Version 2; version 1 was the body itself and is read through upcastOrderFailedV1.
export class OrderFailedV2 extends OrderOutcomeFields {
  @Matches(DECIMAL_PATTERN)
  sentTokenAmount!: string; // "0": a failed order sent nothing

  @ValidateIf((o: OrderFailedV2) => o.sentTokenCurrency !== null)
  @IsOptional()
  @Equals('USDC')
  sentTokenCurrency!: 'USDC' | null; // null when nothing was sent

  @IsString()
  transactionHash!: string; // of a reverted transfer; "" when nothing reached the chain

  @IsString()
  reason!: string;

  @IsISO8601()
  failedAt!: string;
}
