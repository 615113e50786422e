import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

import { ORDER_STATUSES, OrderStatus } from '@onramp/orders-domain';

import { OrderResponse } from './order.presenter';

const STATUS_DESCRIPTION =
  '`CREATED`: waiting for the SEPA payment. `COMPLETED`: paid and the USDC transfer is confirmed on chain. `FAILED`: the payment failed or the transfer failed.';

// The documented order object (order.presenter.ts builds it); `implements` keeps both in step.
@ApiSchema({
  name: 'Order',
  description: 'An order: what the merchant asked for, where the end user pays, and how far it got.',
})
export class OrderResponseBody implements OrderResponse {
  @ApiProperty({
    description: 'Identifier of the order; the path parameter of `GET /orders/{uuid}/payment-details`.',
    format: 'uuid',
    example: '01937a8f-1d0e-7b42-8c11-3e9a7f5b2c60',
  })
  uuid!: string;

  @ApiProperty({ description: 'Order amount in `currency`.', type: 'number', example: 100.5 })
  amount!: number;

  @ApiProperty({ enum: ['EUR'], example: 'EUR' })
  currency!: 'EUR';

  @ApiProperty({
    description: 'Wallet address that receives the USDC, EIP-55 checksummed (spelled as in the request).',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  recepientAddress!: string;

  @ApiProperty({
    description: 'The KYC user the order is for.',
    format: 'uuid',
    example: '01937a8e-4c2b-7d10-9a31-5f2e8b6c4d20',
  })
  kycUserUuid!: string;

  @ApiProperty({ description: 'IBAN the end user pays into.', example: 'DE89370400440532013000' })
  iban!: string;

  @ApiProperty({ description: 'BIC of that account.', example: 'COBADEFFXXX' })
  bic!: string;

  @ApiPropertyOptional({
    description:
      'Account holder of `iban` (the beneficiary name the end user enters; payer banks check it against the IBAN before an instant transfer).',
    example: 'Onramp Collections GmbH',
  })
  beneficiaryName?: string;

  @ApiProperty({
    description:
      'SEPA payment reference the end user must use: an ISO 11649 creditor reference (`RF`, 2 check digits, up to 21 letters and digits), unique per order.',
    example: 'RF18539007547034',
  })
  reference!: string;

  @ApiProperty({
    description: `Current order status. ${STATUS_DESCRIPTION}`,
    enum: ORDER_STATUSES,
    example: 'CREATED',
  })
  orderStatus!: OrderStatus;

  @ApiProperty({ description: 'The same as `orderStatus`.', enum: ORDER_STATUSES, example: 'CREATED' })
  status!: OrderStatus;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:31:00.000Z' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:31:00.000Z' })
  updatedAt!: string;

  @ApiPropertyOptional({
    description: 'EUR actually paid; present once a payment was matched.',
    type: 'number',
    example: 100.5,
  })
  payedAmount?: number;

  @ApiPropertyOptional({
    description: 'USDC sent to the recipient; present once known.',
    type: 'number',
    example: 107.4546,
  })
  sentTokenAmount?: number;

  @ApiPropertyOptional({
    description: 'Hash of the on-chain USDC transfer; present once it exists.',
    example: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  })
  transactionHash?: string;

  @ApiPropertyOptional({
    description: 'Why the order failed; present when `FAILED`.',
    example: 'USDC transfer reverted',
  })
  failureReason?: string;

  @ApiPropertyOptional({
    description: 'When the order became `COMPLETED`.',
    format: 'date-time',
    example: '2025-01-15T10:40:02.000Z',
  })
  completedAt?: string;

  @ApiPropertyOptional({ description: 'When the order became `FAILED`.', format: 'date-time' })
  failedAt?: string;

  @ApiPropertyOptional({
    description:
      'The EPC069-12 ("GiroCode") SEPA credit transfer payload of the payment details, while the order waits for its payment (`CREATED`). `GET /orders/{uuid}/payment-qr` draws it as a QR code.',
    example:
      'BCD\n002\n1\nSCT\nCOBADEFFXXX\nOnramp Collections GmbH\nDE89370400440532013000\nEUR100.5\n\nRF18539007547034',
  })
  epcQrPayload?: string;
}
