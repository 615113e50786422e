import { compareDecimal, eurToFixed, normalizeDecimal, parseEurAmount } from '@onramp/money';

export interface AmountBounds {
  min: string; // decimal strings, inclusive
  max: string;
}

export type AmountCheck = { ok: true; amount: string } | { ok: false; message: string };

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

// The request's amount as a decimal string: JSON numbers go through String(n), the shortest form
// that reads back as the same double (10.1 -> "10.1"); exponent forms (1e-7, 1e21) are refused.
export function amountInputToDecimal(input: unknown): string | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? String(input) : undefined;
  if (typeof input === 'string') return input;
  return undefined;
}

// Shape only: a positive EUR amount with at most 2 decimals. Bounds are checked by checkOrderAmount.
export function checkEurAmountFormat(input: unknown): AmountCheck {
  const text = amountInputToDecimal(input);
  if (text === undefined) return { ok: false, message: 'amount must be a number or a decimal string' };
  if (!PLAIN_DECIMAL.test(text))
    return { ok: false, message: 'amount must be a plain decimal number such as 10.50' };
  if ((text.split('.')[1] ?? '').length > 2)
    return { ok: false, message: 'amount must have at most 2 decimals' };
  try {
    return { ok: true, amount: eurToFixed(parseEurAmount(text)) };
  } catch {
    return { ok: false, message: 'amount must be greater than 0' };
  }
}

// The full rule of an order amount: EUR, > 0, at most 2 decimals, min <= amount <= max.
// On success the amount is in its fixed 2-decimal form ("10.50"), as stored.
export function checkOrderAmount(input: unknown, bounds: AmountBounds): AmountCheck {
  const format = checkEurAmountFormat(input);
  if (!format.ok) return format;
  if (compareDecimal(format.amount, bounds.min) < 0) {
    return { ok: false, message: `amount must be at least ${normalizeDecimal(bounds.min)} EUR` };
  }
  if (compareDecimal(format.amount, bounds.max) > 0) {
    return { ok: false, message: `amount must be at most ${normalizeDecimal(bounds.max)} EUR` };
  }
  return format;
}
