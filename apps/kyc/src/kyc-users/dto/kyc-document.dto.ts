import { IsIn, IsISO31661Alpha2, IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { DOCUMENT_TYPES, DocumentType } from '../kyc-pii';
import { IsCalendarDate } from './calendar-date.validator';
import { toUpperTrimmed, trimmed } from './string-transforms';

export class KycDocumentDto {
  @IsIn(DOCUMENT_TYPES, { message: `type must be one of ${DOCUMENT_TYPES.join(', ')}` })
  type!: DocumentType;

  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  number!: string;

  @toUpperTrimmed()
  @IsISO31661Alpha2({ message: 'issuingCountry must be an ISO 3166-1 alpha-2 country code' })
  issuingCountry!: string;

  @IsCalendarDate()
  expiryDate!: string;
}
