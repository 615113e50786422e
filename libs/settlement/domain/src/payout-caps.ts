// Payout caps per signer, in USDC base units: one transfer at most `perTransfer`, and at most
// `perDay` signed in any rolling 24 hours. A settlement over a cap is HELD before signing (no nonce
// taken). Exact: bigint base units only.
export interface PayoutCapLimits {
  perTransfer?: bigint;
  perDay?: bigint;
}

export type CapDecision =
  | { kind: 'within' }
  | { kind: 'over-per-transfer'; amount: bigint; cap: bigint }
  | { kind: 'over-per-day'; amount: bigint; signedInWindow: bigint; cap: bigint };

export function checkPayoutCaps(amount: bigint, signedInWindow: bigint, caps: PayoutCapLimits): CapDecision {
  if (caps.perTransfer !== undefined && amount > caps.perTransfer)
    return { kind: 'over-per-transfer', amount, cap: caps.perTransfer };
  if (caps.perDay !== undefined && signedInWindow + amount > caps.perDay)
    return { kind: 'over-per-day', amount, signedInWindow, cap: caps.perDay };
  return { kind: 'within' };
}

export const PAYOUT_CAP_WINDOW_MS = 24 * 60 * 60 * 1000;
