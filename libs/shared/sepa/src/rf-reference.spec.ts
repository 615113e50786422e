import {
  buildRfReference,
  extractRfReferences,
  generateRfReference,
  isValidRfReference,
  normalizeReference,
  RF_ALPHABET,
  rfCheckDigits,
} from './rf-reference';

const fixedBytes =
  (...values: number[]) =>
  (size: number): Uint8Array =>
    Uint8Array.from({ length: size }, (_, i) => values[i % values.length]);

describe('isValidRfReference', () => {
  it.each(['RF18539007547034', 'RF18000000000539007547034', 'RF712348231', 'RF45G72UUR', 'RF6518K5'])(
    'accepts the published example %s',
    (ref) => expect(isValidRfReference(ref)).toBe(true),
  );

  it('accepts the printed form with spaces and any case', () => {
    expect(isValidRfReference('RF18 5390 0754 7034')).toBe(true);
    expect(isValidRfReference('rf18 5390 0754 7034')).toBe(true);
    expect(isValidRfReference(' Rf18539007547034\t')).toBe(true);
  });

  it('rejects a wrong check digit and any single changed character', () => {
    expect(isValidRfReference('RF19539007547034')).toBe(false);
    expect(isValidRfReference('RF18539007547035')).toBe(false);
    expect(isValidRfReference('RF18539007547043')).toBe(false); // swapped digits
  });

  it('rejects malformed values', () => {
    expect(isValidRfReference('')).toBe(false);
    expect(isValidRfReference('RF18')).toBe(false); // no body
    expect(isValidRfReference('XX18539007547034')).toBe(false);
    expect(isValidRfReference('RFAB539007547034')).toBe(false);
    expect(isValidRfReference('RF18-5390-0754-7034')).toBe(false);
    expect(isValidRfReference('RF18ÄÖ')).toBe(false);
    // 22 body characters: one more than ISO 11649 allows, even though the checksum works out
    const body22 = '0000000000539007547034';
    expect(isValidRfReference(`RF18${body22}`)).toBe(false);
  });

  it('rejects check digits that are never issued (00, 01, 99)', () => {
    // A body is valid with check digits c exactly when c = its issued check digits (mod 97).
    const bodyValidWith = (check: string): string => {
      const issued = ((((Number(check) - 2) % 97) + 97) % 97) + 2;
      for (let n = 1; ; n++) if (Number(rfCheckDigits(String(n))) === issued) return String(n);
    };
    for (const check of ['00', '01', '99']) {
      const body = bodyValidWith(check);
      expect(isValidRfReference(`RF${check}${body}`)).toBe(false);
    }
  });
});

describe('buildRfReference / rfCheckDigits', () => {
  it('computes the check digits of the standard example', () => {
    expect(rfCheckDigits('539007547034')).toBe('18');
    expect(buildRfReference('539007547034')).toBe('RF18539007547034');
    expect(buildRfReference('g72 uur')).toBe('RF45G72UUR');
  });

  it('pads single-digit check digits with a zero', () => {
    const refs = Array.from({ length: 500 }, (_, i) => buildRfReference(`A${i}`));
    const small = refs.find((r) => r.slice(2, 4).startsWith('0'));
    expect(small).toBeDefined();
    expect(isValidRfReference(small as string)).toBe(true);
  });

  it('refuses bodies that cannot be an RF reference', () => {
    expect(() => rfCheckDigits('')).toThrow();
    expect(() => rfCheckDigits('A'.repeat(22))).toThrow();
    expect(() => rfCheckDigits('AB-CD')).toThrow();
  });
});

describe('generateRfReference', () => {
  it('produces valid references of 22 characters from the unambiguous alphabet', () => {
    for (let i = 0; i < 1000; i++) {
      const ref = generateRfReference();
      expect(ref).toMatch(/^RF\d{2}[2-9A-HJ-NP-Z]{18}$/);
      expect(isValidRfReference(ref)).toBe(true);
    }
  });

  it('is deterministic for an injected random source', () => {
    const a = generateRfReference(fixedBytes(0, 1, 2, 3));
    expect(a).toBe(generateRfReference(fixedBytes(0, 1, 2, 3)));
    expect(a.slice(4, 8)).toBe(RF_ALPHABET.slice(0, 4));
    expect(generateRfReference(fixedBytes(0))).toBe(buildRfReference('2'.repeat(18)));
  });

  it('maps every byte value onto the alphabet', () => {
    expect(generateRfReference(fixedBytes(255)).slice(4)).toBe('Z'.repeat(18));
    expect(generateRfReference(fixedBytes(32)).slice(4)).toBe('2'.repeat(18));
  });

  it('fails loudly when the random source is short', () => {
    expect(() => generateRfReference(() => new Uint8Array(3))).toThrow();
  });

  it('does not repeat itself', () => {
    const refs = new Set(Array.from({ length: 10000 }, () => generateRfReference()));
    expect(refs.size).toBe(10000);
  });
});

describe('normalizeReference', () => {
  it('uppercases and strips every kind of whitespace', () => {
    expect(normalizeReference(' rf18 5390\t0754\n7034 ')).toBe('RF18539007547034');
    expect(normalizeReference('RF18\u00a05390')).toBe('RF185390'); // no-break space from copy and paste
  });
});

describe('extractRfReferences', () => {
  it('finds a spaced, lowercase reference inside remittance text', () => {
    expect(extractRfReferences('payment for order rf18 5390 0754 7034')).toEqual(['RF18539007547034']);
    expect(extractRfReferences('payment for order rf18 5390 0754 7034 thanks!')).toEqual([
      'RF18539007547034',
    ]);
  });

  it('finds a compact reference surrounded by punctuation', () => {
    expect(extractRfReferences('Order:RF18539007547034.')).toEqual(['RF18539007547034']);
    expect(extractRfReferences('E2E-RF45G72UUR/2024')).toEqual(['RF45G72UUR']);
    expect(extractRfReferences('(RF712348231)')).toEqual(['RF712348231']);
  });

  it('finds a generated reference however the payer spaced it', () => {
    const ref = generateRfReference();
    const grouped = ref.match(/.{1,4}/g)?.join(' ') ?? ref;
    expect(extractRfReferences(`Invoice ${grouped.toLowerCase()} from Jane`)).toContain(ref);
    expect(extractRfReferences(`${ref.slice(0, 7)} ${ref.slice(7)}`)).toContain(ref);
  });

  it('finds several references in order of appearance, without duplicates', () => {
    const text = 'RF45G72UUR and rf18 5390 0754 7034, again RF45G72UUR';
    expect(extractRfReferences(text)).toEqual(['RF45G72UUR', 'RF18539007547034']);
  });

  it('ignores invalid or truncated references', () => {
    expect(extractRfReferences('RF19 5390 0754 7034')).toEqual([]);
    expect(extractRfReferences('ref 12345, nothing here')).toEqual([]);
    expect(extractRfReferences('')).toEqual([]);
    expect(extractRfReferences('RF18539007547034X')).toEqual([]); // glued to another word
  });

  it('does not join a reference across punctuation', () => {
    expect(extractRfReferences('RF18 5390-0754 7034')).toEqual([]);
  });

  it('only returns valid readings, every one of them checksummed', () => {
    const text = 'pay rf18 5390 0754 7034 12 ab cd ef gh ij';
    const found = extractRfReferences(text);
    expect(found).toContain('RF18539007547034');
    for (const ref of found) expect(isValidRfReference(ref)).toBe(true);
  });
});
