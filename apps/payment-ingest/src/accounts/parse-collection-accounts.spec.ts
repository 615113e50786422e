import { parseCollectionAccounts } from './parse-collection-accounts';

describe('parseCollectionAccounts', () => {
  it('reads "IBAN BIC Holder name" entries, the BIC optional as "-"', () => {
    expect(
      parseCollectionAccounts(
        ' NL91ABNA0417164300 ABNANL2A Onramp Collections B.V. ; FR7630006000011234567890189 - Onramp SAS ;',
      ),
    ).toEqual([
      { iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', name: 'Onramp Collections B.V.' },
      { iban: 'FR7630006000011234567890189', bic: null, name: 'Onramp SAS' },
    ]);
    expect(parseCollectionAccounts('')).toEqual([]);
  });

  it('names the entry it cannot read', () => {
    expect(() => parseCollectionAccounts('NL91 ABNA 0417 ABNANL2A Onramp')).toThrow(
      'COLLECTION_ACCOUNTS entry "NL91 ABNA 0417 ABNANL2A Onramp" is not "IBAN BIC Holder name"',
    );
  });
});
