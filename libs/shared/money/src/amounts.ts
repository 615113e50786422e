import {
  decimalPlaces,
  DecimalError,
  fromScaled,
  fromScaledFixed,
  normalizeDecimal,
  toScaled,
} from './decimal';

export const EUR_DECIMALS = 2;
export const USDC_DECIMALS = 6;

// EUR amounts travel as decimal strings ("10.5"); at most 2 decimals, strictly positive.
export function parseEurAmount(value: string): bigint {
  if (decimalPlaces(value) > EUR_DECIMALS)
    throw new DecimalError(`EUR amount "${value}" has more than 2 decimals`);
  const cents = toScaled(value, EUR_DECIMALS);
  if (cents <= 0n) throw new DecimalError('amount must be greater than 0');
  return cents;
}

export const eurToString = (cents: bigint): string => fromScaled(cents, EUR_DECIMALS);
export const eurToFixed = (cents: bigint): string => fromScaledFixed(cents, EUR_DECIMALS);
export const usdcToString = (baseUnits: bigint): string => fromScaled(baseUnits, USDC_DECIMALS);
export const usdcToBaseUnits = (value: string): bigint => toScaled(value, USDC_DECIMALS);

// JSON numbers on the wire (docs/api.md); the decimal string's shortest form is what JSON.stringify prints.
export function toWireNumber(decimal: string): number {
  const n = Number(decimal);
  if (!Number.isFinite(n)) throw new DecimalError(`not representable: ${decimal}`);
  return n;
}

// The way back from a JSON number: the shortest decimal that reads as the same double, which is
// what JSON.stringify printed ("100.1" for 100.1). Refuses what is no plain non-negative decimal.
export function fromWireNumber(value: number): string {
  if (!Number.isFinite(value)) throw new DecimalError(`not a finite number: ${value}`);
  return normalizeDecimal(String(value));
}
