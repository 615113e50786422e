import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsISO31661Alpha2, IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { OptionalField } from '@onramp/http';

import { toUpperTrimmed, trimmed } from './string-transforms';

@ApiSchema({ name: 'KycAddress' })
export class KycAddressDto {
  @ApiProperty({
    description: 'Street and house number.',
    minLength: 1,
    maxLength: 200,
    example: 'Unter den Linden 1',
  })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  line1!: string;

  @ApiPropertyOptional({ description: 'Additional address line.', maxLength: 200, example: 'Apartment 3' })
  @trimmed()
  @OptionalField()
  @IsString()
  @MaxLength(200)
  line2?: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Berlin' })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  city!: string;

  @ApiProperty({ minLength: 1, maxLength: 20, example: '10117' })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  postalCode!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country code (case-insensitive).', example: 'DE' })
  @toUpperTrimmed()
  @IsISO31661Alpha2({ message: 'country must be an ISO 3166-1 alpha-2 country code' })
  country!: string;
}
