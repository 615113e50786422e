import { IsIn, IsOptional, IsUUID, ValidateIf } from 'class-validator';

import { IsEurAmountInput, IsRecipientAddress } from './order-validators';

// SPEC.md POST /orders/create; DESIGN.md section 3 fixes types and bounds.
export class CreateOrderDto {
  @IsEurAmountInput()
  amount!: number | string;

  @IsIn(['EUR'], { message: 'currency is required and must be EUR, the only supported currency' })
  currency!: 'EUR';

  // SPEC.md spelling; required unless the alias recipientAddress is given.
  @ValidateIf((o: CreateOrderDto) => o.recepientAddress !== undefined || o.recipientAddress === undefined)
  @IsRecipientAddress()
  recepientAddress?: string;

  @IsOptional()
  @IsRecipientAddress()
  recipientAddress?: string;

  @IsUUID('all', { message: 'kycUserUuid is required and must be a UUID' })
  kycUserUuid!: string;
}
