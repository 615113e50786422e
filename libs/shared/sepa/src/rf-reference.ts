import { randomBytes } from 'node:crypto';

// ISO 11649 creditor reference: "RF" + 2 check digits (ISO 7064 MOD 97-10) + 1..21 alphanumerics.

export const RF_MAX_BODY_LENGTH = 21;
export const RF_GENERATED_BODY_LENGTH = 18;

// 32 symbols: 0-9A-Z without 0/O and 1/I, which end users misread when typing a reference by hand.
// A power of two, so one random byte masked to 5 bits picks a symbol without bias.
export const RF_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

// Returns `size` random bytes; injectable so tests can make references deterministic.
export type RandomSource = (size: number) => Uint8Array;

const RF_SHAPE = /^RF(\d{2})([0-9A-Z]{1,21})$/;

// Uppercase and without any whitespace: how references are stored and compared.
export function normalizeReference(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

// Remainder mod 97 of the number formed by replacing each letter with 10..35, digit by digit (a
// letter's two at once), so arbitrarily long inputs never leave the safe integer range. Callers pass
// uppercase alphanumerics only. By character codes: with a regular expression and a string per
// character it took 1.7 us a reference against 0.3, and an order computes two or three.
function mod97(alnum: string): number {
  let remainder = 0;
  for (let i = 0; i < alnum.length; i++) {
    const code = alnum.charCodeAt(i);
    remainder =
      code >= 48 && code <= 57 ? (remainder * 10 + code - 48) % 97 : (remainder * 100 + code - 55) % 97;
  }
  return remainder;
}

// The two check digits for a body of 1..21 uppercase alphanumerics.
export function rfCheckDigits(body: string): string {
  if (!/^[0-9A-Z]{1,21}$/.test(body)) throw new Error('an RF reference body is 1 to 21 characters of 0-9A-Z');
  return String(98 - mod97(`${body}RF00`)).padStart(2, '0');
}

export function buildRfReference(body: string): string {
  const normalized = normalizeReference(body);
  return `RF${rfCheckDigits(normalized)}${normalized}`;
}

// Accepts any case and spaces (the printed form groups by four: "RF18 5390 0754 7034").
export function isValidRfReference(value: string): boolean {
  const m = RF_SHAPE.exec(normalizeReference(value));
  if (!m) return false;
  const check = Number(m[1]);
  // 98 - (x mod 97) is always 2..98; 00, 01 and 99 are never issued.
  if (check < 2 || check > 98) return false;
  return mod97(`${m[2]}RF${m[1]}`) === 1;
}

export function generateRfReference(randomSource: RandomSource = randomBytes): string {
  const bytes = randomSource(RF_GENERATED_BODY_LENGTH);
  if (bytes.length < RF_GENERATED_BODY_LENGTH) throw new Error('random source returned too few bytes');
  let body = '';
  for (let i = 0; i < RF_GENERATED_BODY_LENGTH; i++) body += RF_ALPHABET[bytes[i] & 31];
  return buildRfReference(body);
}

interface Segment {
  compact: string; // uppercase alphanumerics without the whitespace between them
  tokenEnds: Set<number>; // indices in `compact` right after a whitespace-separated token
}

// Whitespace joins the groups of one reference; any other punctuation ends it.
function segmentsOf(text: string): Segment[] {
  return text.split(/[^0-9A-Za-z\s]+/).map((part) => {
    const tokens = part.split(/\s+/).filter((t) => t.length > 0);
    let compact = '';
    const tokenEnds = new Set<number>();
    for (const token of tokens) {
      compact += token.toUpperCase();
      tokenEnds.add(compact.length);
    }
    return { compact, tokenEnds };
  });
}

// Finds the valid RF references in free-text remittance information or an end-to-end id,
// whatever the case or the spacing ("payment for order rf18 5390 0754 7034"). A candidate must end
// where a word ends. When one "RF" occurrence is valid at several lengths, every valid reading is
// returned (longest first): a checksum alone cannot tell them apart, the caller matches them
// against the references it issued. Results are normalized and distinct, in order of appearance.
export function extractRfReferences(freeText: string): string[] {
  const found: string[] = [];
  for (const { compact, tokenEnds } of segmentsOf(freeText)) {
    for (let start = compact.indexOf('RF'); start >= 0; start = compact.indexOf('RF', start + 1)) {
      if (!/^\d{2}$/.test(compact.slice(start + 2, start + 4))) continue;
      const longest = Math.min(RF_MAX_BODY_LENGTH, compact.length - start - 4);
      for (let bodyLength = longest; bodyLength >= 1; bodyLength--) {
        const end = start + 4 + bodyLength;
        if (!tokenEnds.has(end)) continue;
        const candidate = compact.slice(start, end);
        if (isValidRfReference(candidate) && !found.includes(candidate)) found.push(candidate);
      }
    }
  }
  return found;
}
