import { creditReferenceCandidates, readRfReferences } from './rf-reading';

describe('readRfReferences', () => {
  it('reads references spaced, lower-case or glued into an end-to-end id', () => {
    expect(readRfReferences('bestellung rf70 t3mz 8qh2 wxk9 pd4r na danke')).toEqual([
      'RF70T3MZ8QH2WXK9PD4RNA',
    ]);
    expect(readRfReferences('E2E-RF07HB8NT4K7QW2MZP9D3X')).toEqual(['RF07HB8NT4K7QW2MZP9D3X']);
  });

  it('recovers the letter O typed for a zero, in the check digits or the body', () => {
    expect(readRfReferences('RFO7 HB8N T4K7 QW2M ZP9D 3X')).toEqual(['RF07HB8NT4K7QW2MZP9D3X']);
    expect(readRfReferences('rfo7hb8nt4k7qw2mzp9d3x')).toEqual(['RF07HB8NT4K7QW2MZP9D3X']);
    expect(readRfReferences('RF18 539O O754 7O34')).toEqual(['RF18539007547034']);
  });

  it('never returns a reading whose check digits fail', () => {
    expect(readRfReferences('RFO8 HB8N T4K7 QW2M ZP9D 3X')).toEqual([]);
    expect(readRfReferences('RF07 HB8N T4K7 QW2M ZP9D 3Y')).toEqual([]);
    expect(readRfReferences('order 12345')).toEqual([]);
  });
});

describe('creditReferenceCandidates', () => {
  it('orders structured, then free text, then end-to-end id, without duplicates', () => {
    expect(
      creditReferenceCandidates({
        structured: ['RF54 P9D4 KX2R T7MW QZ3H B5'],
        unstructured: 'also rf70 t3mz 8qh2 wxk9 pd4r na',
        endToEndId: 'RF54P9D4KX2RT7MWQZ3HB5',
      }),
    ).toEqual(['RF54P9D4KX2RT7MWQZ3HB5', 'RF70T3MZ8QH2WXK9PD4RNA']);
    expect(creditReferenceCandidates({})).toEqual([]);
  });
});
