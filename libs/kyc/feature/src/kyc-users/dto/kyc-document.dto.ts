import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsISO31661Alpha2, IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { DOCUMENT_TYPES, DocumentType } from '../kyc-pii';
import { IsCalendarDate } from './calendar-date.validator';
import { toUpperTrimmed, trimmed } from './string-transforms';

@ApiSchema({ name: 'KycDocument' })
export class KycDocumentDto {
  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'PASSPORT' })
  @IsIn(DOCUMENT_TYPES, { message: `type must be one of ${DOCUMENT_TYPES.join(', ')}` })
  type!: DocumentType;

  @ApiProperty({ description: 'Document number.', minLength: 1, maxLength: 50, example: 'C01X00T47' })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  number!: string;

  @ApiProperty({
    description: 'ISO 3166-1 alpha-2 code of the issuing country (case-insensitive).',
    example: 'DE',
  })
  @toUpperTrimmed()
  @IsISO31661Alpha2({ message: 'issuingCountry must be an ISO 3166-1 alpha-2 country code' })
  issuingCountry!: string;

  @ApiProperty({
    description: 'YYYY-MM-DD. A document expired before today is `REJECTED`.',
    format: 'date',
    example: '2031-08-01',
  })
  @IsCalendarDate()
  expiryDate!: string;
}
