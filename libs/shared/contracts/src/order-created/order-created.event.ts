import { IsIn, IsISO8601, IsString, IsUUID, Matches } from 'class-validator';

export const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

export class OrderCreatedV1 {
  @IsUUID()
  orderUuid!: string;

  @IsUUID()
  kycUserUuid!: string;

  @Matches(DECIMAL_PATTERN)
  amount!: string; // EUR, decimal string

  @IsIn(['EUR'])
  currency!: 'EUR';

  @Matches(EVM_ADDRESS_PATTERN)
  recipientAddress!: string;

  @IsString()
  reference!: string;

  @IsISO8601()
  createdAt!: string;
}
