export type KycStatus = 'APPROVED' | 'PENDING_REVIEW' | 'REJECTED';

export type KycDocumentType = 'PASSPORT' | 'ID_CARD' | 'DRIVING_LICENCE' | 'RESIDENCE_PERMIT';

export interface KycAddress {
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  country: string; // ISO 3166-1 alpha-2
}

export interface KycDocument {
  type: KycDocumentType;
  number: string;
  issuingCountry: string; // ISO 3166-1 alpha-2
  expiryDate: string; // YYYY-MM-DD
}

export interface CreateKycUserRequest {
  externalId?: string; // the merchant's own id, unique per merchant
  firstName: string;
  lastName: string;
  dateOfBirth: string; // YYYY-MM-DD
  nationality: string; // ISO 3166-1 alpha-2
  email: string;
  phone?: string; // E.164
  address: KycAddress;
  document?: KycDocument;
}

export interface KycUser extends CreateKycUserRequest {
  uuid: string;
  status: KycStatus;
  statusReason?: string;
  createdAt: string;
  updatedAt: string;
}
