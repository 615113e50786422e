import { createHmac } from 'node:crypto';

import { str } from '@onramp/config';

import { DEVELOPMENT_KEYS } from './development-keys';
import { FieldCipher, parseKey } from './field-cipher';
import { keyRingFrom } from './key-ring';

// The payer's name travels from payment-ingest (which learns it from the bank) through settlement and
// orders to webhook-dispatch (which puts it in the order.completed body) sealed under the payer-data
// key ring, which only those two ends hold (docs/security.md, PII at rest). The associated data binds
// it to its order: a sealed name copied onto another order's event does not open.
export const payerNameContext = (orderUuid: string): string => `payer-name:${orderUuid.toLowerCase()}`;

// The KYC holder's name in kyc.user.registered: sealed by kyc under the same ring for payment-ingest's
// payer-name policy, bound to the user.
export const kycHolderNameContext = (userUuid: string): string => `kyc-holder-name:${userUuid.toLowerCase()}`;

// payments' own rows: each sealed column bound to its row and column.
export type PaymentsSealedField = 'payer-name' | 'payer-iban' | 'creditor-name' | 'creditor-iban' | 'pain001';
export const paymentsFieldContext = (
  table: 'bank-transaction' | 'return',
  id: string,
  field: PaymentsSealedField,
): string => `payments:${table}:${id.toLowerCase()}:${field}`;

// A merchant's webhook signing secret at rest (webhook-dispatch's own ring), bound to the merchant.
export const webhookSecretContext = (merchantId: string): string => `webhook-secret:${merchantId}`;

// A webhook delivery's body at rest, bound to the delivery.
export const webhookBodyContext = (deliveryId: string): string => `webhook-body:${deliveryId.toLowerCase()}`;

// True for a value FieldCipher sealed ("v1.<key id>.<iv>.<tag>.<ciphertext>").
export function isSealed(value: string): boolean {
  return FieldCipher.keyIdOf(value) !== undefined && value.split('.').length === 5;
}

export function sealPayerName(cipher: FieldCipher, orderUuid: string, name: string): string {
  return cipher.encrypt(name, payerNameContext(orderUuid));
}

// Events written before names were sealed carry them plain: those are taken as they are (a name is
// never five dot-separated parts starting with "v1").
export function openPayerName(cipher: FieldCipher, orderUuid: string, value: string): string {
  return isSealed(value) ? cipher.decrypt(value, payerNameContext(orderUuid)) : value;
}

// The payer-data ring of the services that hold it (kyc seals with it only, payment-ingest and
// webhook-dispatch seal and open), from their PAYER_DATA_* variables.
export const PAYER_DATA_KEY_VARIABLES = {
  name: 'PAYER_DATA_ENCRYPTION_KEY',
  previousName: 'PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS',
} as const;

// The ring's variables, in the env spec of each service that seals or opens payer data.
export const payerDataEnv = {
  PAYER_DATA_ENCRYPTION_KEY: str({ optional: true }),
  PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
};

export function payerDataKeyRing(
  env: { PAYER_DATA_ENCRYPTION_KEY?: string; PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS?: string },
  production: boolean,
): string[] {
  return keyRingFrom({
    ...PAYER_DATA_KEY_VARIABLES,
    current: env.PAYER_DATA_ENCRYPTION_KEY,
    previous: env.PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS,
    production,
    developmentKey: DEVELOPMENT_KEYS.payerDataEncryption,
  });
}

// A keyed hash to find a sealed value by equality (a blind index): HMAC-SHA256 under a key derived
// from one ring key and the purpose, so it says nothing without the key and differs per purpose. A
// lookup asks for the index under every key of the ring, so rows indexed before a rotation are still
// found (a rekey re-indexes them under the newest key).
export function blindIndexes(ring: readonly string[], purpose: string, value: string): string[] {
  return ring.map((material) => {
    const key = createHmac('sha256', parseKey(material)).update(`blind-index:${purpose}`).digest();
    return createHmac('sha256', key).update(value).digest('base64url');
  });
}

// The blind index of an IBAN (as the bank writes it: no spaces, upper case) under each ring key.
export const ibanIndexes = (ring: readonly string[], iban: string): string[] =>
  blindIndexes(ring, 'iban', iban.replace(/\s+/g, '').toUpperCase());
