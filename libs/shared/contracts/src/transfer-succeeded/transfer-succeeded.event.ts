import { IsIn, IsInt, IsISO8601, IsString, IsUUID, Matches } from 'class-validator';

import { DECIMAL_PATTERN, EVM_ADDRESS_PATTERN } from '../order-created/order-created.event';

export class TransferSucceededV1 {
  @IsUUID()
  orderUuid!: string;

  @Matches(/^0x[0-9a-fA-F]{64}$/)
  transactionHash!: string;

  @Matches(DECIMAL_PATTERN)
  payedAmount!: string;

  @Matches(DECIMAL_PATTERN)
  sentTokenAmount!: string; // USDC, up to 6 decimals

  @IsIn(['USDC'])
  sentTokenCurrency!: 'USDC';

  @Matches(EVM_ADDRESS_PATTERN)
  recipientAddress!: string;

  @Matches(DECIMAL_PATTERN)
  fxRateBase!: string;

  @Matches(DECIMAL_PATTERN)
  fxRateEffective!: string;

  @IsISO8601()
  fxRateUpdatedAt!: string;

  @IsInt()
  chainId!: number;

  @IsString()
  payerAccountHolderName!: string;
}
