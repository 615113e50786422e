import { Equals, IsIn, IsISO8601, IsNumber, IsOptional, IsString, IsUUID, ValidateIf } from 'class-validator';

// Exactly the failed webhook body of docs/api.md: no payerAccountHolderName, no fxRate* fields.
export class OrderFailedV1 {
  @Equals('order.failed')
  event!: 'order.failed';

  @Equals('FAILED')
  status!: 'FAILED';

  @IsUUID()
  orderUuid!: string;

  @IsUUID()
  userUuid!: string;

  @IsNumber()
  amount!: number;

  @IsNumber()
  payedAmount!: number;

  @IsNumber()
  sentTokenAmount!: number;

  @ValidateIf((o: OrderFailedV1) => o.sentTokenCurrency !== null)
  @IsOptional()
  @Equals('USDC')
  sentTokenCurrency!: 'USDC' | null;

  @IsIn(['EUR'])
  currency!: 'EUR';

  @IsString()
  reference!: string;

  @IsString()
  recipientAddress!: string;

  @IsString()
  transactionHash!: string;

  @IsString()
  message!: string;

  @IsISO8601()
  timestamp!: string;
}
