import { Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsISO31661Alpha2,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { IsDateOfBirth } from './calendar-date.validator';
import { KycAddressDto } from './kyc-address.dto';
import { KycDocumentDto } from './kyc-document.dto';
import { compactPhone, toUpperTrimmed, trimmed } from './string-transforms';

// DESIGN.md section 3, KYC request.
export class AddKycUserDto {
  @trimmed()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  externalId?: string;

  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName!: string;

  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName!: string;

  @IsDateOfBirth()
  dateOfBirth!: string;

  @toUpperTrimmed()
  @IsISO31661Alpha2({ message: 'nationality must be an ISO 3166-1 alpha-2 country code' })
  nationality!: string;

  @trimmed()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @compactPhone()
  @IsOptional()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'phone must be in E.164 format, e.g. +4915112345678' })
  phone?: string;

  @IsDefined({ message: 'address is required' })
  @IsObject({ message: 'address must be an object' })
  @ValidateNested()
  @Type(() => KycAddressDto)
  address!: KycAddressDto;

  @IsOptional()
  @IsObject({ message: 'document must be an object' })
  @ValidateNested()
  @Type(() => KycDocumentDto)
  document?: KycDocumentDto;
}
