import { Equals, IsIn, IsISO8601, IsNumber, IsString, IsUUID } from 'class-validator';

// Exactly the webhook body of docs/api.md (Events): webhook-dispatch sends it as it is.
export class OrderCompletedV1 {
  @Equals('order.completed')
  event!: 'order.completed';

  @Equals('COMPLETED')
  status!: 'COMPLETED';

  @IsUUID()
  orderUuid!: string;

  @IsUUID()
  userUuid!: string;

  @IsNumber()
  amount!: number;

  @IsNumber()
  payedAmount!: number;

  @IsString()
  payerAccountHolderName!: string;

  @IsIn(['EUR'])
  currency!: 'EUR';

  @IsString()
  fxRateBase!: string;

  @IsString()
  fxRateEffective!: string;

  @IsISO8601()
  fxRateUpdatedAt!: string;

  @IsNumber()
  sentTokenAmount!: number;

  @Equals('USDC')
  sentTokenCurrency!: 'USDC';

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
