import {
  decimalPlaces,
  DecimalError,
  fromScaled,
  multiplyTruncate,
  normalizeDecimal,
  toScaled,
  USDC_DECIMALS,
  usdcToBaseUnits,
} from '@onramp/money';

export interface FxQuoteInput {
  fxRateBase: string; // USDC per EUR from the rate provider, decimal string
  fee: string; // fraction kept by us, 0 <= fee < 1 ("0.01" = 1 %)
  payedAmount: string; // EUR actually received, decimal string
  updatedAt: Date; // when the provider last refreshed the rate
  now: Date;
  maxAgeSeconds: number;
}

export interface FxQuote {
  fxRateBase: string;
  fxRateEffective: string; // fxRateBase x (1 - fee), exact
  sentTokenAmount: string; // USDC, truncated to 6 decimals: we never send more than was paid for
  baseUnits: bigint; // sentTokenAmount in the token's smallest unit
  fxRateUpdatedAt: Date;
}

export class StaleFxRateError extends Error {
  constructor(
    readonly ageSeconds: number,
    readonly maxAgeSeconds: number,
  ) {
    super(`FX rate is ${ageSeconds} s old; the maximum is ${maxAgeSeconds} s`);
  }
}

export class InvalidFxInputError extends Error {}

function requireDecimal(name: string, value: string): void {
  try {
    decimalPlaces(value);
  } catch (err) {
    if (err instanceof DecimalError)
      throw new InvalidFxInputError(`${name} is not a decimal number: "${value}"`);
    throw err;
  }
}

// 1 - fee, exactly, at the fee's own precision.
function oneMinus(fee: string): string {
  const scale = decimalPlaces(fee);
  const one = 10n ** BigInt(scale);
  const scaledFee = toScaled(fee, scale);
  if (scaledFee >= one) throw new InvalidFxInputError(`fee must be below 1, got "${fee}"`);
  return fromScaled(one - scaledFee, scale);
}

// Prices a payout. Every step is exact decimal arithmetic; the only rounding is the final
// truncation to the token's 6 decimals. A rate older than its max age is never used.
export function quote(input: FxQuoteInput): FxQuote {
  requireDecimal('fxRateBase', input.fxRateBase);
  requireDecimal('fee', input.fee);
  requireDecimal('payedAmount', input.payedAmount);
  if (toScaled(input.fxRateBase, decimalPlaces(input.fxRateBase)) === 0n) {
    throw new InvalidFxInputError('fxRateBase must be greater than 0');
  }
  const ageMs = input.now.getTime() - input.updatedAt.getTime();
  if (Number.isNaN(ageMs)) throw new InvalidFxInputError('updatedAt and now must be valid dates');
  if (ageMs > input.maxAgeSeconds * 1000) {
    throw new StaleFxRateError(Math.floor(ageMs / 1000), input.maxAgeSeconds);
  }

  const keep = oneMinus(input.fee);
  const exactScale = decimalPlaces(input.fxRateBase) + decimalPlaces(keep);
  const fxRateEffective = multiplyTruncate(input.fxRateBase, keep, exactScale); // no digits dropped
  const sentTokenAmount = multiplyTruncate(input.payedAmount, fxRateEffective, USDC_DECIMALS);
  return {
    fxRateBase: normalizeDecimal(input.fxRateBase),
    fxRateEffective,
    sentTokenAmount,
    baseUnits: usdcToBaseUnits(sentTokenAmount),
    fxRateUpdatedAt: input.updatedAt,
  };
}
