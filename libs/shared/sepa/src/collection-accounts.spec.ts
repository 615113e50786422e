import { chooseCollectionAccount, parseCollectionAccounts } from './collection-accounts';

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

describe('chooseCollectionAccount', () => {
  const accounts = ['A', 'B', 'C'];

  it('is a function of the order uuid alone', () => {
    const uuid = '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
    expect(chooseCollectionAccount(accounts, uuid)).toBe(
      chooseCollectionAccount(accounts, uuid.toUpperCase()),
    );
    expect(chooseCollectionAccount(['only'], uuid)).toBe('only');
    expect(() => chooseCollectionAccount([], uuid)).toThrow('no collection account configured');
  });

  it('spreads orders evenly over the accounts, uuid v7 time prefixes included', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      // consecutive v7-like uuids: the same time prefix, a counter in the random part
      const uuid = `0193a1b2-7c3d-7${(i >> 12).toString(16).padStart(3, '0')}-8${(i & 0xfff).toString(16).padStart(3, '0')}-6c7d8e9f0a1b`;
      const a = chooseCollectionAccount(accounts, uuid);
      counts.set(a, (counts.get(a) ?? 0) + 1);
    }
    for (const a of accounts) expect(counts.get(a)).toBeGreaterThan(900);
  });
});
