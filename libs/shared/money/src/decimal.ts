// Exact decimal arithmetic on scaled bigints. Money never touches binary floats here.

export class DecimalError extends Error {}

const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

// Parses a non-negative decimal string into an integer scaled by 10^scale; rejects extra precision.
export function toScaled(value: string, scale: number): bigint {
  const m = DECIMAL_RE.exec(value);
  if (!m) throw new DecimalError(`not a decimal number: "${value}"`);
  const [, whole, frac = ''] = m;
  if (frac.length > scale) {
    if (/[^0]/.test(frac.slice(scale))) throw new DecimalError(`"${value}" has more than ${scale} decimals`);
  }
  const padded = (frac + '0'.repeat(scale)).slice(0, scale);
  return BigInt(whole) * 10n ** BigInt(scale) + BigInt(padded || '0');
}

// Formats a scaled integer as a plain decimal string without trailing zeros ("10.5", "3", "0.000001").
export function fromScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const base = 10n ** BigInt(scale);
  const whole = abs / base;
  const frac = (abs % base).toString().padStart(scale, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

// Formats with exactly `scale` decimals ("10.50"): for database columns and display.
export function fromScaledFixed(value: bigint, scale: number): string {
  const base = 10n ** BigInt(scale);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const frac = scale > 0 ? `.${(abs % base).toString().padStart(scale, '0')}` : '';
  return `${negative ? '-' : ''}${abs / base}${frac}`;
}

// Canonical form of a decimal string ("010.50" -> "10.5").
export function normalizeDecimal(value: string): string {
  const m = DECIMAL_RE.exec(value);
  if (!m) throw new DecimalError(`not a decimal number: "${value}"`);
  const scale = (m[2] ?? '').length;
  return fromScaled(toScaled(value, scale), scale);
}

export function decimalPlaces(value: string): number {
  const m = DECIMAL_RE.exec(value);
  if (!m) throw new DecimalError(`not a decimal number: "${value}"`);
  return (m[2] ?? '').length;
}

// a x b truncated (towards zero) to `scale` decimals; inputs are decimal strings.
export function multiplyTruncate(a: string, b: string, scale: number): string {
  const sa = decimalPlaces(a);
  const sb = decimalPlaces(b);
  const product = toScaled(a, sa) * toScaled(b, sb); // scaled by 10^(sa+sb)
  const shift = sa + sb - scale;
  const scaled = shift >= 0 ? product / 10n ** BigInt(shift) : product * 10n ** BigInt(-shift);
  return fromScaled(scaled, scale);
}

export function compareDecimal(a: string, b: string): number {
  const scale = Math.max(decimalPlaces(a), decimalPlaces(b));
  const x = toScaled(a, scale);
  const y = toScaled(b, scale);
  return x === y ? 0 : x < y ? -1 : 1;
}
