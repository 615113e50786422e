import type { KycUser } from '@onramp/sdk';

import { KycUserEntity } from './kyc-user.entity';
import { KycPii } from './kyc-pii';

// docs/api.md, Conventions: the request's fields plus uuid, status, statusReason?, createdAt, updatedAt,
// as the SDK publishes them to merchants (it ships standalone, so it cannot import ours): an answer
// the SDK does not describe fails the typecheck here.
export type KycUserResponse = KycUser;

export function presentKycUser(user: KycUserEntity, pii: KycPii): KycUserResponse {
  return {
    uuid: user.uuid,
    ...(user.externalId !== null ? { externalId: user.externalId } : {}),
    firstName: pii.firstName,
    lastName: pii.lastName,
    dateOfBirth: pii.dateOfBirth,
    nationality: pii.nationality,
    email: pii.email,
    ...(pii.phone !== undefined ? { phone: pii.phone } : {}),
    address: {
      line1: pii.address.line1,
      ...(pii.address.line2 !== undefined ? { line2: pii.address.line2 } : {}),
      city: pii.address.city,
      postalCode: pii.address.postalCode,
      country: pii.address.country,
    },
    ...(pii.document ? { document: { ...pii.document } } : {}),
    status: user.status,
    ...(user.statusReason !== null ? { statusReason: user.statusReason } : {}),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
