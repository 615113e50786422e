import { generateRfReference } from '@onramp/sepa';

import { pickReference, referenceCandidates } from './reference-matching';

describe('referenceCandidates', () => {
  const ref = 'RF18539007547034';

  it('normalizes the reference field: case and spaces do not matter', () => {
    expect(referenceCandidates({ reference: ' rf18 5390 0754 7034 ' })).toEqual([ref]);
  });

  it('finds the reference inside free-text remittance information and the end-to-end id', () => {
    expect(referenceCandidates({ remittanceInformation: 'Order rf18 5390 0754 7034, thanks' })).toEqual([
      ref,
    ]);
    expect(referenceCandidates({ endToEndId: 'E2E-RF45G72UUR' })).toEqual(['RF45G72UUR']);
  });

  it('puts the explicit reference first and drops duplicates', () => {
    const other = generateRfReference();
    expect(
      referenceCandidates({
        reference: other.toLowerCase(),
        remittanceInformation: `${ref} and ${other}`,
        endToEndId: ref,
      }),
    ).toEqual([other, ref]);
  });

  it('keeps a non-RF reference field as given (normalized), ignores non-RF free text', () => {
    expect(referenceCandidates({ reference: 'inv 42', remittanceInformation: 'invoice 42' })).toEqual([
      'INV42',
    ]);
  });

  it('returns nothing for a credit without any reference', () => {
    expect(referenceCandidates({})).toEqual([]);
    expect(referenceCandidates({ reference: '   ', remittanceInformation: null })).toEqual([]);
  });
});

describe('pickReference', () => {
  it('prefers an open reference, then the most explicit candidate', () => {
    const a = { reference: 'A', status: 'MATCHED' as const };
    const b = { reference: 'B', status: 'OPEN' as const };
    const c = { reference: 'C', status: 'OPEN' as const };
    expect(pickReference([c, b, a], ['A', 'B', 'C'])).toBe(b);
    expect(pickReference([a], ['A', 'B'])).toBe(a);
    expect(pickReference([], ['A'])).toBeUndefined();
  });
});
