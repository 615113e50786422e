import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIBAN, IsIn, IsString, Matches, MaxLength } from 'class-validator';

import { OptionalField } from '@onramp/http';

import { BANK_TRANSACTION_STATUSES, BankTransactionStatus } from '../bank/bank-transaction.entity';
import { IsEurAmount } from './eur-amount.validator';

// What a bank feed tells us about one incoming SEPA credit (docs/api.md, Sandbox bank).
@ApiSchema({
  name: 'CreateSepaCreditRequest',
  description: 'One incoming SEPA credit, as a bank feed reports it.',
})
export class CreateSepaCreditDto {
  @ApiPropertyOptional({
    description:
      "The SEPA reference the payer typed: the order's `reference`. Matching ignores case and spaces; the reference is also looked for in `remittanceInformation` and `endToEndId`.",
    maxLength: 140,
    example: 'RF18539007547034',
  })
  @OptionalField()
  @IsString()
  @MaxLength(140)
  reference?: string;

  @ApiProperty({
    description:
      'Amount credited in EUR: greater than 0, at most 2 decimals. A JSON number or a decimal string.',
    oneOf: [
      { type: 'number', minimum: 0.01 },
      { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,2})?$' },
    ],
    example: 100.5,
  })
  @IsEurAmount()
  amount!: number | string;

  @ApiProperty({ enum: ['EUR'], example: 'EUR' })
  @IsIn(['EUR'], { message: 'currency must be EUR' })
  currency!: 'EUR';

  @ApiProperty({
    description: 'Name of the sending account holder.',
    minLength: 1,
    maxLength: 140,
    example: 'Ada Lovelace',
  })
  @IsString()
  @Matches(/\S/, { message: 'payerName must not be empty' })
  @MaxLength(140)
  payerName!: string;

  @ApiPropertyOptional({
    description: 'IBAN of the sending account (spaces allowed).',
    example: 'DE02120300000000202051',
  })
  @OptionalField()
  @IsIBAN({}, { message: 'payerIban must be an IBAN' })
  payerIban?: string;

  @ApiPropertyOptional({
    description: 'Unstructured remittance information.',
    maxLength: 140,
    example: 'Order RF18539007547034',
  })
  @OptionalField()
  @IsString()
  @MaxLength(140) // SEPA unstructured remittance information
  remittanceInformation?: string;

  @ApiPropertyOptional({ description: 'SEPA end-to-end id.', maxLength: 35, example: 'E2E-20250115-0001' })
  @OptionalField()
  @IsString()
  @MaxLength(35)
  endToEndId?: string;

  @ApiPropertyOptional({
    description: '`BOOKED` (default) confirms the matched order; `REJECTED` fails it.',
    enum: BANK_TRANSACTION_STATUSES,
    default: 'BOOKED',
  })
  @OptionalField()
  @IsIn(BANK_TRANSACTION_STATUSES, { message: 'status must be BOOKED or REJECTED' })
  status?: BankTransactionStatus;
}
