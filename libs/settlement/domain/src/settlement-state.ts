// One settlement per order. The signed bytes are stored before they leave (SIGNED), so a restart
// re-broadcasts the very same transaction instead of paying twice. HELD: over a payout cap, kept
// unsigned (no nonce) until an operator releases it or the rolling window has room again.
// CANCELLED: the bank took the euros back (payment.reversed) before the transfer was signed.
export const SETTLEMENT_STATES = [
  'PENDING',
  'HELD',
  'SIGNED',
  'BROADCAST',
  'CONFIRMED',
  'FAILED',
  'CANCELLED',
] as const;
export type SettlementState = (typeof SETTLEMENT_STATES)[number];

const TRANSITIONS: { readonly [S in SettlementState]: readonly SettlementState[] } = {
  // An underfunded hot wallet keeps it PENDING (held, not failed). FAILED only before anything is
  // signed, for a recipient refused by screening (USDC blacklist, sanctioned list). Only a settlement
  // not signed yet can be cancelled: once signed, a transfer is driven to its receipt, never withdrawn.
  PENDING: ['SIGNED', 'HELD', 'FAILED', 'CANCELLED'],
  HELD: ['PENDING', 'CANCELLED'], // released: signed by the next pass, with the next nonce
  SIGNED: ['BROADCAST'],
  BROADCAST: ['CONFIRMED', 'FAILED'], // decided only by a receipt with enough confirmations
  CONFIRMED: [],
  FAILED: [],
  CANCELLED: [],
};

export class IllegalSettlementTransitionError extends Error {
  constructor(
    readonly from: SettlementState,
    readonly to: SettlementState,
  ) {
    super(`settlement cannot go from ${from} to ${to}`);
  }
}

export function isSettlementState(value: string): value is SettlementState {
  return (SETTLEMENT_STATES as readonly string[]).includes(value);
}

export function canTransition(from: SettlementState, to: SettlementState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: SettlementState, to: SettlementState): void {
  if (!canTransition(from, to)) throw new IllegalSettlementTransitionError(from, to);
}

export function isTerminal(state: SettlementState): boolean {
  return TRANSITIONS[state].length === 0;
}

// A transaction exists (signed, maybe on chain): its nonce is spent and its bytes must be driven to a receipt.
export function isInFlight(state: SettlementState): boolean {
  return state === 'SIGNED' || state === 'BROADCAST';
}

// Receipt status 1 = the transfer executed; 0 = it reverted on chain (e.g. a blacklisted recipient).
export function outcomeOfReceipt(status: number): Extract<SettlementState, 'CONFIRMED' | 'FAILED'> {
  return status === 1 ? 'CONFIRMED' : 'FAILED';
}
