export interface CollectionAccount {
  iban: string;
  bic: string | null;
  name: string;
}

// COLLECTION_IBAN/BIC/ACCOUNT_NAME plus COLLECTION_ACCOUNTS ("IBAN BIC Holder name" entries
// separated by ";", the BIC may be "-"), written to payments.collection_accounts at boot so that
// statements and returns read one list, and operators can see it in the database.
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
