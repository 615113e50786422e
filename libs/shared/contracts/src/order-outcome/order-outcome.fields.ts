import { IsIn, IsString, IsUUID, Matches } from 'class-validator';

import { DECIMAL_PATTERN, EVM_ADDRESS_PATTERN } from '../order-created/order-created.event';

// What order.completed and order.failed both say about the order that ended.
export abstract class OrderOutcomeFields {
  @IsUUID()
  orderUuid!: string;

  @IsUUID()
  kycUserUuid!: string;

  @Matches(DECIMAL_PATTERN)
  amount!: string; // EUR, the order's amount

  @IsIn(['EUR'])
  currency!: 'EUR';

  @IsString()
  reference!: string;

  @Matches(EVM_ADDRESS_PATTERN)
  recipientAddress!: string;

  @Matches(DECIMAL_PATTERN)
  payedAmount!: string; // EUR actually paid; "0" when no money arrived
}
