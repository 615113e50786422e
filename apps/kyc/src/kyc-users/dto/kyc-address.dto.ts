import { IsISO31661Alpha2, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

import { toUpperTrimmed, trimmed } from './string-transforms';

export class KycAddressDto {
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  line1!: string;

  @trimmed()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line2?: string;

  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  city!: string;

  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  postalCode!: string;

  @toUpperTrimmed()
  @IsISO31661Alpha2({ message: 'country must be an ISO 3166-1 alpha-2 country code' })
  country!: string;
}
