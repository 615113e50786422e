import { Inject, Injectable } from '@nestjs/common';

import {
  FieldCipher,
  ibanIndexes,
  isSealed,
  kycHolderNameContext,
  paymentsFieldContext,
  PaymentsSealedField,
  sealPayerName,
} from '@onramp/crypto';

import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';

export type SealedField = PaymentsSealedField;
const context = paymentsFieldContext;

// The payer-data ring (shared with kyc and webhook-dispatch, docs/security.md): the payer's name and
// IBAN are sealed in payments' rows, bound to the row, with a blind index of the IBAN for the
// lookups that need equality (reversals, settled returns); the name leaves in payment.confirmed sealed
// for the order, and the KYC holder's name arrives sealed from kyc. Values stored before sealing are
// plain until `npm run rekey` seals them: opening takes a value that is not sealed as it is.
@Injectable()
export class PaymentsPayerData {
  private readonly cipher: FieldCipher;
  private readonly ring: readonly string[];

  constructor(@Inject(PAYMENT_INGEST_CONFIG) config: Pick<PaymentIngestConfig, 'payerDataKeys'>) {
    this.ring = config.payerDataKeys;
    this.cipher = new FieldCipher(config.payerDataKeys);
  }

  seal(table: 'bank-transaction' | 'return', id: string, field: SealedField, value: string): string;
  seal(
    table: 'bank-transaction' | 'return',
    id: string,
    field: SealedField,
    value: string | null,
  ): string | null;
  seal(
    table: 'bank-transaction' | 'return',
    id: string,
    field: SealedField,
    value: string | null,
  ): string | null {
    return value === null ? null : this.cipher.encrypt(value, context(table, id, field));
  }

  open(table: 'bank-transaction' | 'return', id: string, field: SealedField, stored: string): string;
  open(
    table: 'bank-transaction' | 'return',
    id: string,
    field: SealedField,
    stored: string | null,
  ): string | null;
  open(
    table: 'bank-transaction' | 'return',
    id: string,
    field: SealedField,
    stored: string | null,
  ): string | null {
    if (stored === null || !isSealed(stored)) return stored;
    return this.cipher.decrypt(stored, context(table, id, field));
  }

  // The index stored with a new row (newest key) and the ones a lookup asks for (every key).
  ibanIndex(iban: string | null): string | null {
    return iban === null ? null : ibanIndexes([this.ring[0]], iban)[0];
  }

  ibanIndexes(iban: string): string[] {
    return ibanIndexes(this.ring, iban);
  }

  nameForOrder(orderUuid: string, name: string): string {
    return sealPayerName(this.cipher, orderUuid, name);
  }

  kycHolderName(userUuid: string, stored: string): string {
    return isSealed(stored) ? this.cipher.decrypt(stored, kycHolderNameContext(userUuid)) : stored;
  }
}
