import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

export const KYC_STATUSES = ['APPROVED', 'PENDING_REVIEW', 'REJECTED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

// Key: the user uuid. Orders keeps a projection of it to refuse orders for unknown users.
export class KycUserRegisteredV1 {
  @IsUUID()
  userUuid!: string;

  @IsIn(KYC_STATUSES)
  status!: KycStatus;

  // "first last" as registered, sealed under the payer-data ring (associated data: the user, see
  // kycHolderNameContext in @onramp/crypto): payment-ingest opens it to compare with the payer of a
  // credit (the payer name policy). Optional: events written before it existed have none; events
  // written before it was sealed carry it plain.
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  holderName?: string;
}
