import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

export const KYC_STATUSES = ['APPROVED', 'PENDING_REVIEW', 'REJECTED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

// Key: the user uuid. Orders keeps a projection of it to refuse orders for unknown users.
export class KycUserRegisteredV1 {
  @IsUUID()
  userUuid!: string;

  @IsIn(KYC_STATUSES)
  status!: KycStatus;

  // "first last" as registered: payment-ingest compares it with the payer of a credit (the payer
  // name policy). Optional: events written before it existed have none.
  @IsOptional()
  @IsString()
  @MaxLength(300)
  holderName?: string;
}
