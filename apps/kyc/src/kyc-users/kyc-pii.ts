import { FieldCipher } from '@onramp/crypto';

export const DOCUMENT_TYPES = ['PASSPORT', 'ID_CARD', 'DRIVING_LICENCE', 'RESIDENCE_PERMIT'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface KycAddress {
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  country: string;
}

export interface KycDocument {
  type: DocumentType;
  number: string;
  issuingCountry: string;
  expiryDate: string;
}

// Everything that identifies a person; stored only sealed.
export interface KycPii {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  nationality: string;
  email: string;
  phone?: string;
  address: KycAddress;
  document?: KycDocument;
}

// Binds each sealed blob to its user (associated data = uuid), so a blob copied onto another row
// does not decrypt.
export class KycPiiCipher {
  constructor(private readonly cipher: FieldCipher) {}

  seal(userUuid: string, pii: KycPii): string {
    return this.cipher.encrypt(JSON.stringify(pii), userUuid);
  }

  open(userUuid: string, sealed: string): KycPii {
    return JSON.parse(this.cipher.decrypt(sealed, userUuid)) as KycPii;
  }
}
