import { IsIn, IsISO8601, IsString, IsUUID, Matches } from 'class-validator';

import { DECIMAL_PATTERN, EVM_ADDRESS_PATTERN } from '../order-created/order-created.event';

// Carries what settlement needs so it never asks another service.
export class PaymentConfirmedV1 {
  @IsUUID()
  orderUuid!: string;

  @IsUUID()
  bankTransactionId!: string;

  @IsString()
  reference!: string;

  @Matches(DECIMAL_PATTERN)
  payedAmount!: string; // EUR actually received

  @IsIn(['EUR'])
  currency!: 'EUR';

  @IsString()
  payerAccountHolderName!: string;

  @Matches(EVM_ADDRESS_PATTERN)
  recipientAddress!: string;

  @IsISO8601()
  bookedAt!: string;
}
