import { FieldCipher } from '@onramp/crypto';
import { ResponseBodyCodec } from '@onramp/persistence';

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

  // What an erased user's PII becomes: sealed like any value (one format for every row, so the
  // rekey treats it as any other), holding nothing.
  sealErased(userUuid: string): string {
    return this.cipher.encrypt(JSON.stringify({ erased: true }), userUuid);
  }

  open(userUuid: string, sealed: string): KycPii {
    return JSON.parse(this.cipher.decrypt(sealed, userUuid)) as KycPii;
  }

  // Idempotency records of POST /kyc/add: the replayed answer is the registration with its PII, so
  // it is stored sealed ({"sealed": ...}), bound to its merchant and key. Rows from before sealing
  // (plain JSON) still replay; `npm run rekey` seals them.
  readonly responseBodies: ResponseBodyCodec = {
    seal: (body, context) => ({ sealed: this.cipher.encrypt(JSON.stringify(body), context) }),
    open: (stored, context) =>
      isSealedBody(stored) ? (JSON.parse(this.cipher.decrypt(stored.sealed, context)) as unknown) : stored,
  };
}

export const isSealedBody = (stored: unknown): stored is { sealed: string } =>
  typeof stored === 'object' &&
  stored !== null &&
  typeof (stored as { sealed?: unknown }).sealed === 'string' &&
  Object.keys(stored).length === 1;
