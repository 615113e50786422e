import { ValidateBy, ValidationOptions } from 'class-validator';

import { normalizeDecimal } from '@onramp/money';

const EUR_PATTERN = /^\d{1,12}(\.\d{1,2})?$/; // NUMERIC(20,2) with room to spare

// A JSON number or a decimal string, > 0, at most 2 decimals. A number is read through its
// shortest decimal form (10.1 -> "10.1"), so 0.1 + 0.2 style values with a float tail are refused.
export function eurAmountToString(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  if (!EUR_PATTERN.test(text)) return undefined;
  const canonical = normalizeDecimal(text);
  return /[1-9]/.test(canonical) ? canonical : undefined;
}

export function IsEurAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEurAmount',
      validator: {
        validate: (value: unknown) => eurAmountToString(value) !== undefined,
        defaultMessage: () => 'amount must be a positive number with at most 2 decimals',
      },
    },
    options,
  );
}
