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

  // Sealed under the payer-data ring for this order (sealPayerName in @onramp/crypto): only
  // payment-ingest, which seals it, and webhook-dispatch, which opens it for the body, hold the key;
  // the services between pass it on as it is. Events written before sealing carry it plain.
  @IsString()
  payerAccountHolderName!: string;
}
