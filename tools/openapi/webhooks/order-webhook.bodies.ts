import { ApiProperty, ApiSchema } from '@nestjs/swagger';

// How the two webhook bodies of docs/api.md (Events) are documented. webhook-dispatch's presenter
// (order-webhook-body.presenter.ts) is what sends them; openapi.spec.ts checks these field lists
// against docs/api.md, as the presenter's spec checks what it sends.

const uuid = (description: string) => ApiProperty({ description, format: 'uuid' });
const DECIMAL = '^\\d+(\\.\\d+)?$';
const TIMESTAMP = 'When the event was created: ISO 8601 UTC with milliseconds.';

@ApiSchema({ name: 'OrderCompletedEvent', description: 'Body of the `order.completed` webhook.' })
export class OrderCompletedWebhookBody {
  @ApiProperty({ enum: ['order.completed'] })
  event!: 'order.completed';

  @ApiProperty({ enum: ['COMPLETED'] })
  status!: 'COMPLETED';

  @uuid('The order.')
  orderUuid!: string;

  @uuid('The KYC user of the order.')
  userUuid!: string;

  @ApiProperty({ description: 'Order amount in EUR.', type: 'number', example: 100.5 })
  amount!: number;

  @ApiProperty({ description: 'EUR actually paid.', type: 'number', example: 100.5 })
  payedAmount!: number;

  @ApiProperty({ description: 'Name of the sending account holder.', example: 'Ada Lovelace' })
  payerAccountHolderName!: string;

  @ApiProperty({ enum: ['EUR'] })
  currency!: 'EUR';

  @ApiProperty({
    description: 'EUR to USDC rate of the rate source, a decimal number in a string.',
    pattern: DECIMAL,
    example: '1.08',
  })
  fxRateBase!: string;

  @ApiProperty({
    description:
      'The rate applied after the fee, a decimal number in a string: `sentTokenAmount = payedAmount x fxRateEffective`, truncated to 6 decimals.',
    pattern: DECIMAL,
    example: '1.0692',
  })
  fxRateEffective!: string;

  @ApiProperty({ description: 'When the rate was last refreshed (ISO 8601).', format: 'date-time' })
  fxRateUpdatedAt!: string;

  @ApiProperty({ description: 'USDC sent to `recipientAddress`.', type: 'number', example: 107.4546 })
  sentTokenAmount!: number;

  @ApiProperty({ enum: ['USDC'] })
  sentTokenCurrency!: 'USDC';

  @ApiProperty({ description: 'SEPA reference of the order.', example: 'RF18539007547034' })
  reference!: string;

  @ApiProperty({
    description: 'Wallet address that received the USDC.',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  recipientAddress!: string;

  @ApiProperty({
    description: 'Hash of the on-chain USDC transfer.',
    example: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  })
  transactionHash!: string;

  @ApiProperty({
    description: 'Completion message.',
    example:
      'Payment of 100.5 EUR received; 107.4546 USDC sent to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  message!: string;

  @ApiProperty({ description: TIMESTAMP, format: 'date-time', example: '2025-01-15T10:40:00.000Z' })
  timestamp!: string;
}

@ApiSchema({
  name: 'OrderFailedEvent',
  description:
    'Body of the `order.failed` webhook. It has no `payerAccountHolderName` and no `fxRate*` fields.',
})
export class OrderFailedWebhookBody {
  @ApiProperty({ enum: ['order.failed'] })
  event!: 'order.failed';

  @ApiProperty({ enum: ['FAILED'] })
  status!: 'FAILED';

  @uuid('The order.')
  orderUuid!: string;

  @uuid('The KYC user of the order.')
  userUuid!: string;

  @ApiProperty({ description: 'Order amount in EUR.', type: 'number', example: 100.5 })
  amount!: number;

  @ApiProperty({
    description: 'EUR actually paid; 0 in a failure with no payment.',
    type: 'number',
    example: 0,
  })
  payedAmount!: number;

  @ApiProperty({ description: 'USDC sent; 0 when nothing was sent.', type: 'number', example: 0 })
  sentTokenAmount!: number;

  @ApiProperty({
    description: '`null` when nothing was sent.',
    enum: ['USDC'],
    nullable: true,
    example: null,
  })
  sentTokenCurrency!: 'USDC' | null;

  @ApiProperty({ enum: ['EUR'] })
  currency!: 'EUR';

  @ApiProperty({ description: 'SEPA reference of the order.', example: 'RF18539007547034' })
  reference!: string;

  @ApiProperty({
    description: 'Wallet address of the order.',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  recipientAddress!: string;

  @ApiProperty({
    description: 'Hash of the failed on-chain transfer; an empty string when no transaction exists.',
    example: '',
  })
  transactionHash!: string;

  @ApiProperty({ description: 'Reason for the failure.', example: 'payment rejected by the bank' })
  message!: string;

  @ApiProperty({ description: TIMESTAMP, format: 'date-time', example: '2025-01-15T10:40:00.000Z' })
  timestamp!: string;
}
