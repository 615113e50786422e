export const PAYER_NAME_POLICIES = ['OFF', 'WARN', 'HOLD'] as const;
export type PayerNamePolicy = (typeof PAYER_NAME_POLICIES)[number];

// Share of the shorter name's words that must be found in the other name.
export const DEFAULT_PAYER_NAME_THRESHOLD = 0.75;

export function defaultPayerNamePolicy(mode: 'sandbox' | 'production'): PayerNamePolicy {
  return mode === 'production' ? 'HOLD' : 'WARN';
}

// Letters that Unicode decomposition does not reduce to a base letter.
const FOLD: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
// How German, Scandinavian and banking systems without umlauts write them.
const EXPAND: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', å: 'aa' };

function words(name: string): string[][] {
  return name
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => {
      const fold = (s: string): string =>
        [...s]
          .map((ch) => FOLD[ch] ?? ch)
          .join('')
          .normalize('NFD')
          .replace(/\p{M}/gu, '');
      const plain = fold(w);
      const expanded = fold([...w.normalize('NFC')].map((ch) => EXPAND[ch] ?? ch).join(''));
      return plain === expanded ? [plain] : [plain, expanded];
    });
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const tail = (x: string, skip: number): string => x.slice(i + skip);
  return tail(a, 1) === tail(b, 1) || tail(a, 1) === tail(b, 0) || tail(a, 0) === tail(b, 1);
}

function sameWord(a: string[], b: string[]): boolean {
  return a.some((x) => b.some((y) => x === y || (Math.min(x.length, y.length) >= 5 && withinOneEdit(x, y))));
}

// 0..1: the share of the shorter name's words found in the longer one, in any order, ignoring
// case, diacritics and hyphens; a typo of one letter in a long word still counts. Middle names
// missing on one side do not lower it; a single shared word never makes a match on its own.
export function payerNameScore(payerName: string, holderName: string): number {
  const a = words(payerName);
  const b = words(holderName);
  if (a.length === 0 || b.length === 0) return 0;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const unused = [...longer];
  let matched = 0;
  for (const w of shorter) {
    const i = unused.findIndex((u) => sameWord(w, u));
    if (i >= 0) {
      matched++;
      unused.splice(i, 1);
    }
  }
  if (matched < Math.min(2, longer.length)) return 0;
  return matched / shorter.length;
}

export function payerNameMatches(
  payerName: string,
  holderName: string,
  threshold = DEFAULT_PAYER_NAME_THRESHOLD,
): boolean {
  return payerNameScore(payerName, holderName) >= threshold;
}
