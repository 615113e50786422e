import { IsOptional, IsString, IsUUID, Matches } from 'class-validator';

import { DECIMAL_PATTERN } from '../order-created/order-created.event';

export class PaymentFailedV1 {
  @IsUUID()
  orderUuid!: string;

  // The credit the bank rejected; absent when no money was involved (the order expired unpaid).
  @IsOptional()
  @IsUUID()
  bankTransactionId?: string;

  @IsString()
  reference!: string;

  @Matches(DECIMAL_PATTERN)
  payedAmount!: string; // "0" when the money never arrived

  @IsString()
  reason!: string;
}
