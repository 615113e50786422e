import { IsIn, IsUUID } from 'class-validator';

export const KYC_STATUSES = ['APPROVED', 'PENDING_REVIEW', 'REJECTED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

// Key: the user uuid. Orders keeps a projection of it to refuse orders for unknown users.
export class KycUserRegisteredV1 {
  @IsUUID()
  userUuid!: string;

  @IsIn(KYC_STATUSES)
  status!: KycStatus;
}
