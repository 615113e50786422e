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

  // Sealed under the payer-data ring for this order (sealPayerName in @onramp/crypto): only
  // payment-ingest, which seals it, and webhook-dispatch, which opens it for the body, hold the key;
  // the services between pass it on as it is. Events written before sealing carry it plain.
  @IsString()
  payerAccountHolderName!: string;

  @Matches(EVM_ADDRESS_PATTERN)
  recipientAddress!: string;

  @IsISO8601()
  bookedAt!: string;
}
