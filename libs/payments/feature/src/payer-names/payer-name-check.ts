import { payerNameMatches, PayerNamePolicy } from '@onramp/payments-domain';

import type { PaymentsPayerData } from '../payer-data/payer-data.cipher';

export type PayerNameCheck = 'MATCH' | 'MISMATCH' | 'UNKNOWN';

export interface PayerNameVerdict {
  check: PayerNameCheck | null; // null: policy OFF, nothing compared
  holds: boolean; // HOLD and not a match: the credit waits in suspense
  reason?: 'PAYER_NAME_MISMATCH' | 'PAYER_NAME_UNKNOWN';
}

// Compares the payer with the KYC user of the order. Under HOLD a third-party payment (or one
// whose user's name is not known here yet) pays nothing until an operator assigns or returns it;
// under WARN it pays and the credit records the mismatch. The holder's name is stored sealed (as kyc
// sent it) and opened here, in-process, only to compare; sealedHolderName looks it up (the caller's
// KycHoldersRepository read, in its transaction).
export async function checkPayerName(
  sealedHolderName: (kycUserUuid: string) => Promise<string | undefined>,
  payerData: Pick<PaymentsPayerData, 'kycHolderName'>,
  policy: PayerNamePolicy,
  payerName: string,
  kycUserUuid: string | null,
): Promise<PayerNameVerdict> {
  if (policy === 'OFF') return { check: null, holds: false };
  const stored = kycUserUuid ? await sealedHolderName(kycUserUuid) : undefined;
  const holder = stored && kycUserUuid ? payerData.kycHolderName(kycUserUuid, stored) : undefined;
  const check: PayerNameCheck = !holder
    ? 'UNKNOWN'
    : payerNameMatches(payerName, holder)
      ? 'MATCH'
      : 'MISMATCH';
  if (check === 'MATCH' || policy === 'WARN') return { check, holds: false };
  return { check, holds: true, reason: check === 'UNKNOWN' ? 'PAYER_NAME_UNKNOWN' : 'PAYER_NAME_MISMATCH' };
}
