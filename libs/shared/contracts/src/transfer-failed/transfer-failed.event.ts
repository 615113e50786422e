import { IsString, IsUUID, Matches } from 'class-validator';

import { DECIMAL_PATTERN } from '../order-created/order-created.event';

export class TransferFailedV1 {
  @IsUUID()
  orderUuid!: string;

  @IsString()
  transactionHash!: string; // "" when nothing reached the chain

  @Matches(DECIMAL_PATTERN)
  payedAmount!: string;

  @IsString()
  reason!: string;
}
