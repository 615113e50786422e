import { compareDecimal, fromScaledFixed, toScaled } from '@onramp/money';

export const AMOUNT_POLICIES = ['FLEXIBLE', 'EXACT'] as const;
export type AmountPolicy = (typeof AMOUNT_POLICIES)[number];

export const DEFAULT_AMOUNT_POLICY: AmountPolicy = 'FLEXIBLE';
export const DEFAULT_AMOUNT_TOLERANCE_PERCENT = '5';

export type AmountRefusal =
  'AMOUNT_BELOW_MINIMUM' | 'AMOUNT_ABOVE_TOLERANCE' | 'AMOUNT_ABOVE_MAXIMUM' | 'AMOUNT_NOT_EXACT';

export interface AmountPolicyInput {
  policy: AmountPolicy;
  tolerancePercent: string; // decimal string, e.g. "5" or "2.5"
  orderAmount: string; // EUR decimal strings
  received: string;
  minAmount: string; // ORDER_MIN_AMOUNT
  maxAmount: string; // ORDER_MAX_AMOUNT: never paid above it, whatever the policy
}

export type AmountDecision = { pays: true; payedAmount: string } | { pays: false; reason: AmountRefusal };

// Decides whether a credit for a known, open order pays it, and how much. FLEXIBLE pays what
// arrived (SPEC's payedAmount) when it lies between the minimum order amount and the order amount
// plus the tolerance; EXACT pays only the order amount to the cent. Refused credits wait in
// suspense for the operator (assign or return).
export function decideAmount(input: AmountPolicyInput): AmountDecision {
  const received = toScaled(input.received, 2);
  const order = toScaled(input.orderAmount, 2);
  if (compareDecimal(input.received, input.maxAmount) > 0)
    return { pays: false, reason: 'AMOUNT_ABOVE_MAXIMUM' };
  if (input.policy === 'EXACT') {
    return received === order
      ? { pays: true, payedAmount: fromScaledFixed(received, 2) }
      : { pays: false, reason: 'AMOUNT_NOT_EXACT' };
  }
  if (compareDecimal(input.received, input.minAmount) < 0)
    return { pays: false, reason: 'AMOUNT_BELOW_MINIMUM' };
  // received <= order * (100 + tolerance) / 100, in integers: tolerance scaled by 10^4
  const tolerance = toScaled(input.tolerancePercent, 4);
  if (received * 1_000_000n > order * (1_000_000n + tolerance))
    return { pays: false, reason: 'AMOUNT_ABOVE_TOLERANCE' };
  return { pays: true, payedAmount: fromScaledFixed(received, 2) };
}
