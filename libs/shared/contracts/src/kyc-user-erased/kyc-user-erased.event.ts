import { IsISO8601, IsUUID } from 'class-validator';

// Key: the user uuid. An operator erased the user's personal data in kyc (docs/security.md, erasure):
// every service that keeps a copy of it drops that copy (payment-ingest: the holder name of its payer
// name policy). Carries nothing personal; it travels on its own topic, so a consumer must not let a
// kyc.user.registered that arrives after it bring the data back.
export class KycUserErasedV1 {
  @IsUUID()
  userUuid!: string;

  @IsISO8601()
  erasedAt!: string;
}
