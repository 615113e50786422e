import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsUUID, ValidateIf } from 'class-validator';

import { OptionalField } from '@onramp/http';

import { IsEurAmountInput, IsRecipientAddress } from './order-validators';

// docs/api.md POST /orders/create; docs/api.md, Conventions fixes types and bounds.
@ApiSchema({ name: 'CreateOrderRequest' })
export class CreateOrderDto {
  @ApiProperty({
    description:
      'Order amount in EUR, a JSON number (a string such as "100.50" is refused): greater than 0, at most 2 decimals, within the configured bounds (1 to 100000 by default).',
    type: 'number',
    minimum: 0.01,
    example: 100.5,
  })
  @IsEurAmountInput()
  amount!: number;

  @ApiProperty({ description: 'Only `EUR` is supported.', enum: ['EUR'], example: 'EUR' })
  @IsIn(['EUR'], { message: 'currency is required and must be EUR, the only supported currency' })
  currency!: 'EUR';

  // docs/api.md spelling; required unless the alias recipientAddress is given.
  @ApiProperty({
    description:
      'Arbitrum USDC wallet address that receives the tokens (the field is spelled this way). 0x and 40 hex characters; mixed case must be a valid EIP-55 checksum; not the zero address.',
    pattern: '^0x[0-9a-fA-F]{40}$',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @ValidateIf((o: CreateOrderDto) => o.recepientAddress !== undefined || o.recipientAddress === undefined)
  @IsRecipientAddress()
  recepientAddress?: string;

  @ApiPropertyOptional({
    description:
      'Alias of `recepientAddress`, accepted in its place; when both are sent they must name the same address.',
    pattern: '^0x[0-9a-fA-F]{40}$',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @OptionalField()
  @IsRecipientAddress()
  recipientAddress?: string;

  @ApiProperty({
    description:
      'The `uuid` from `POST /kyc/add`. The user must be registered by the calling merchant and `APPROVED`.',
    format: 'uuid',
    example: '01937a8e-4c2b-7d10-9a31-5f2e8b6c4d20',
  })
  @IsUUID('all', { message: 'kycUserUuid is required and must be a UUID' })
  kycUserUuid!: string;
}
