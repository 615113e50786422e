import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsISO31661Alpha2,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { OptionalField } from '@onramp/http';

import { IsDateOfBirth } from './calendar-date.validator';
import { KycAddressDto } from './kyc-address.dto';
import { KycDocumentDto } from './kyc-document.dto';
import { compactPhone, toUpperTrimmed, trimmed } from './string-transforms';

// docs/api.md, Conventions, KYC request.
@ApiSchema({ name: 'AddKycUserRequest', description: 'Identification data of an end user.' })
export class AddKycUserDto {
  @ApiPropertyOptional({
    description:
      "The merchant's own id for this end user, unique per merchant: registering it a second time is answered 409.",
    minLength: 1,
    maxLength: 100,
    example: 'customer-4711',
  })
  @trimmed()
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  externalId?: string;

  @ApiProperty({ description: 'Given name(s).', minLength: 1, maxLength: 100, example: 'Ada' })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName!: string;

  @ApiProperty({ description: 'Family name(s).', minLength: 1, maxLength: 100, example: 'Lovelace' })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName!: string;

  @ApiProperty({
    description:
      'A real date in the past (YYYY-MM-DD), not before 1900-01-01. A person under 18 is `REJECTED`.',
    format: 'date',
    example: '1990-12-10',
  })
  @IsDateOfBirth()
  dateOfBirth!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country code (case-insensitive).', example: 'DE' })
  @toUpperTrimmed()
  @IsISO31661Alpha2({ message: 'nationality must be an ISO 3166-1 alpha-2 country code' })
  nationality!: string;

  @ApiProperty({ format: 'email', maxLength: 254, example: 'ada@example.com' })
  @trimmed()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({
    description: 'E.164 phone number; spaces, dashes and parentheses are removed first.',
    pattern: '^\\+[1-9]\\d{6,14}$',
    example: '+4915112345678',
  })
  @compactPhone()
  @OptionalField()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'phone must be in E.164 format, e.g. +4915112345678' })
  phone?: string;

  @ApiProperty({ description: 'Residential address.', type: () => KycAddressDto })
  @IsDefined({ message: 'address is required' })
  @IsObject({ message: 'address must be an object' })
  @ValidateNested()
  @Type(() => KycAddressDto)
  address!: KycAddressDto;

  @ApiPropertyOptional({
    description: 'Identity document. An expired one is `REJECTED`.',
    type: () => KycDocumentDto,
  })
  @OptionalField()
  @IsObject({ message: 'document must be an object' })
  @ValidateNested()
  @Type(() => KycDocumentDto)
  document?: KycDocumentDto;
}
