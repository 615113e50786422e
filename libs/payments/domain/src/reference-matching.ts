import { extractRfReferences, normalizeReference } from '@onramp/sepa';

export interface CreditReferenceFields {
  reference?: string | null;
  remittanceInformation?: string | null;
  endToEndId?: string | null;
}

// Longest structured reference a bank carries (SEPA allows 35 characters).
const MAX_REFERENCE_LENGTH = 35;

// Every reference a credit could be paying, most explicit first: the reference field as given
// (normalized: case and spaces do not matter), then RF references found inside the reference,
// the free-text remittance information and the end-to-end id. Matching against the merchant's
// open references decides which one, if any, it really is.
export function referenceCandidates(fields: CreditReferenceFields): string[] {
  const found: string[] = [];
  const add = (ref: string): void => {
    if (ref.length > 0 && ref.length <= MAX_REFERENCE_LENGTH && !found.includes(ref)) found.push(ref);
  };
  if (fields.reference) {
    add(normalizeReference(fields.reference));
    extractRfReferences(fields.reference).forEach(add);
  }
  for (const text of [fields.remittanceInformation, fields.endToEndId]) {
    if (text) extractRfReferences(text).forEach(add);
  }
  return found;
}

export interface ReferenceLike {
  reference: string;
  status: 'OPEN' | 'MATCHED' | 'CLOSED' | 'EXPIRED';
}

// An OPEN reference wins over a used one; among equals, the most explicit candidate wins.
export function pickReference<T extends ReferenceLike>(found: T[], candidates: string[]): T | undefined {
  const rank = (r: T): number => candidates.indexOf(r.reference);
  const ordered = [...found].filter((r) => rank(r) >= 0).sort((a, b) => rank(a) - rank(b));
  return ordered.find((r) => r.status === 'OPEN') ?? ordered[0];
}
