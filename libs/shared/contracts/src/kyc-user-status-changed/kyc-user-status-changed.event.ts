import { IsIn, IsInt, IsISO8601, IsString, IsUUID, MaxLength, Min } from 'class-validator';

import { KYC_STATUSES, KycStatus } from '../kyc-user-registered/kyc-user-registered.event';

// Key: the user uuid. A KYC decision (an operator today, a KYC provider's webhook later).
// `statusVersion` counts the user's status changes (registration is 0): a consumer keeps the
// highest one, so a registration event that arrives late never undoes a decision.
export class KycUserStatusChangedV1 {
  @IsUUID()
  userUuid!: string;

  @IsIn(KYC_STATUSES)
  status!: KycStatus;

  @IsIn(KYC_STATUSES)
  previousStatus!: KycStatus;

  @IsInt()
  @Min(1)
  statusVersion!: number;

  @IsString()
  @MaxLength(500)
  reason!: string;

  @IsString()
  @MaxLength(100)
  decidedBy!: string;

  @IsISO8601()
  decidedAt!: string;
}
