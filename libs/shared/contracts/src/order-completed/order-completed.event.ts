import { Equals, IsISO8601, IsString, Matches } from 'class-validator';

import { DECIMAL_PATTERN } from '../order-created/order-created.event';
import { OrderOutcomeFields } from '../order-outcome/order-outcome.fields';

// The facts of a completed order: every field the order.completed webhook body needs (docs/api.md,
// Events), amounts as exact decimal strings like every other event. It is not the body:
// webhook-dispatch presents it as one (JSON numbers, the body's names and key order).
// Version 2; version 1 was the body itself and is read through upcastOrderCompletedV1.
export class OrderCompletedV2 extends OrderOutcomeFields {
  // Sealed under the payer-data ring for this order (sealPayerName in @onramp/crypto): only
  // payment-ingest, which seals it, and webhook-dispatch, which opens it for the body, hold the key;
  // the services between pass it on as it is. Events written before sealing carry it plain.
  @IsString()
  payerAccountHolderName!: string;

  @Matches(DECIMAL_PATTERN)
  fxRateBase!: string;

  @Matches(DECIMAL_PATTERN)
  fxRateEffective!: string;

  @IsISO8601()
  fxRateUpdatedAt!: string;

  @Matches(DECIMAL_PATTERN)
  sentTokenAmount!: string; // USDC, up to 6 decimals

  @Equals('USDC')
  sentTokenCurrency!: 'USDC';

  @Matches(/^0x[0-9a-fA-F]{64}$/)
  transactionHash!: string;

  @IsString()
  message!: string; // for the merchant: the amounts as they were paid and sent

  @IsISO8601()
  completedAt!: string;
}
