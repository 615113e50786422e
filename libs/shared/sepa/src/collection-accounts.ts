import { createHash } from 'node:crypto';

// One of the platform's receiving accounts: IBAN, BIC (null when unknown) and account holder.
export interface CollectionAccount {
  iban: string;
  bic: string | null;
  name: string;
}

// COLLECTION_ACCOUNTS: "IBAN BIC Holder name" entries separated by ";", the BIC may be "-". Read by
// payment-ingest (every account it books statements of) and orders (the accounts payers are shown),
// after COLLECTION_IBAN / COLLECTION_BIC / COLLECTION_ACCOUNT_NAME.
export function parseCollectionAccounts(raw: string): CollectionAccount[] {
  return raw
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const m = /^([A-Z]{2}\d{2}[A-Z0-9]{11,30})\s+([A-Z0-9]{8}(?:[A-Z0-9]{3})?|-)\s+(\S.{0,69})$/.exec(
        entry,
      );
      if (!m) throw new Error(`COLLECTION_ACCOUNTS entry "${entry}" is not "IBAN BIC Holder name"`);
      return { iban: m[1]!, bic: m[2] === '-' ? null : m[2]!, name: m[3]!.trim() };
    });
}

// The account an order is paid into: a pure function of the order's uuid (the first 32 bits of its
// SHA-256, modulo the number of accounts), so orders spread evenly over the accounts and the choice
// can be recomputed by anyone holding the same list. The order keeps what it was shown at creation:
// changing the list later moves only new orders.
export function chooseCollectionAccount<A>(accounts: readonly A[], orderUuid: string): A {
  if (accounts.length === 0) throw new Error('no collection account configured');
  if (accounts.length === 1) return accounts[0] as A; // any hash modulo 1 is 0: no hash to compute
  const digest = createHash('sha256').update(orderUuid.toLowerCase()).digest();
  return accounts[digest.readUInt32BE(0) % accounts.length] as A;
}
