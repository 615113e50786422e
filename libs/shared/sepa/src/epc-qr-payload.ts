import { fromScaled, toScaled } from '@onramp/money';

import { isValidRfReference, normalizeReference } from './rf-reference';

export interface EpcPaymentFields {
  beneficiaryName: string;
  iban: string;
  bic?: string | null;
  amount: string; // EUR decimal, 0.01 .. 999999999.99
  reference: string; // an RF creditor reference goes in the structured field
}

const MAX_PAYLOAD_BYTES = 331;

// EPC069-12 "GiroCode" / SEPA credit transfer QR payload, version 002 (BIC optional), UTF-8.
// Lines: BCD, 002, 1, SCT, BIC, name, IBAN, EUR amount, purpose, structured reference,
// unstructured text. An RF reference goes in the structured line so the payer's app copies it
// exactly; anything else goes in the free text.
export function buildEpcQrPayload(fields: EpcPaymentFields): string {
  const name = fields.beneficiaryName.trim();
  if (name.length === 0 || name.length > 70) throw new Error('beneficiary name must be 1 to 70 characters');
  const iban = fields.iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) throw new Error('invalid IBAN');
  const bic = (fields.bic ?? '').trim().toUpperCase();
  if (bic && !/^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(bic)) throw new Error('invalid BIC');
  const cents = toScaled(fields.amount, 2);
  if (cents < 1n || cents > 99_999_999_999n)
    throw new Error('amount must be between 0.01 and 999999999.99 EUR');
  const rf = isValidRfReference(fields.reference);
  const reference = rf ? normalizeReference(fields.reference) : '';
  const text = rf ? '' : fields.reference.trim().slice(0, 140);
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    bic,
    name,
    iban,
    `EUR${fromScaled(cents, 2)}`,
    '',
    reference,
    text,
  ];
  while (lines[lines.length - 1] === '') lines.pop();
  const payload = lines.join('\n');
  if (new TextEncoder().encode(payload).length > MAX_PAYLOAD_BYTES)
    throw new Error('EPC QR payload exceeds 331 bytes');
  return payload;
}
