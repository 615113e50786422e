import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';

export const KYC_DECISIONS = ['APPROVED', 'REJECTED'] as const;
export type KycDecision = (typeof KYC_DECISIONS)[number];

export class KycDecisionDto {
  @ApiProperty({ enum: KYC_DECISIONS })
  @IsIn(KYC_DECISIONS)
  status!: KycDecision;

  @ApiProperty({ example: 'passport checked by video call', maxLength: 500 })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason!: string;
}
