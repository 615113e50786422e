import {
  assertTransition,
  canTransition,
  IllegalSettlementTransitionError,
  isInFlight,
  isSettlementState,
  isTerminal,
  outcomeOfReceipt,
  SETTLEMENT_STATES,
  SettlementState,
} from './settlement-state';

describe('settlement state machine', () => {
  const allowed: Array<[SettlementState, SettlementState]> = [
    ['PENDING', 'SIGNED'],
    ['PENDING', 'CANCELLED'],
    ['PENDING', 'HELD'],
    ['PENDING', 'FAILED'],
    ['HELD', 'PENDING'],
    ['HELD', 'CANCELLED'],
    ['SIGNED', 'BROADCAST'],
    ['BROADCAST', 'CONFIRMED'],
    ['BROADCAST', 'FAILED'],
  ];

  it('allows exactly the forward path to a receipt', () => {
    for (const from of SETTLEMENT_STATES) {
      for (const to of SETTLEMENT_STATES) {
        const expected = allowed.some(([f, t]) => f === from && t === to);
        expect([from, to, canTransition(from, to)]).toEqual([from, to, expected]);
      }
    }
  });

  it('never lets a signed transfer go back to PENDING (that would sign a second payout)', () => {
    expect(() => assertTransition('SIGNED', 'PENDING')).toThrow(IllegalSettlementTransitionError);
    expect(() => assertTransition('BROADCAST', 'PENDING')).toThrow(IllegalSettlementTransitionError);
    expect(() => assertTransition('BROADCAST', 'SIGNED')).toThrow(IllegalSettlementTransitionError);
  });

  it('cancels only a transfer not signed yet (a reversed payment)', () => {
    expect(canTransition('PENDING', 'CANCELLED')).toBe(true);
    expect(canTransition('HELD', 'CANCELLED')).toBe(true);
    for (const from of ['SIGNED', 'BROADCAST', 'CONFIRMED', 'FAILED'] as const)
      expect(canTransition(from, 'CANCELLED')).toBe(false);
    expect(isTerminal('CANCELLED')).toBe(true);
  });

  it('fails a signed transfer only by its receipt, and a held one never goes straight to signing', () => {
    expect(canTransition('SIGNED', 'FAILED')).toBe(false);
    expect(canTransition('HELD', 'SIGNED')).toBe(false);
    expect(canTransition('HELD', 'FAILED')).toBe(false);
  });

  it('keeps terminal states terminal', () => {
    expect(isTerminal('CONFIRMED')).toBe(true);
    expect(isTerminal('FAILED')).toBe(true);
    expect(() => assertTransition('CONFIRMED', 'FAILED')).toThrow(
      'settlement cannot go from CONFIRMED to FAILED',
    );
    expect(() => assertTransition('FAILED', 'CONFIRMED')).toThrow(IllegalSettlementTransitionError);
    expect(isTerminal('PENDING')).toBe(false);
  });

  it('knows which states hold a spent nonce', () => {
    expect(SETTLEMENT_STATES.filter(isInFlight)).toEqual(['SIGNED', 'BROADCAST']);
  });

  it('maps a receipt status to the outcome', () => {
    expect(outcomeOfReceipt(1)).toBe('CONFIRMED');
    expect(outcomeOfReceipt(0)).toBe('FAILED');
  });

  it('recognizes state names', () => {
    expect(isSettlementState('BROADCAST')).toBe(true);
    expect(isSettlementState('DONE')).toBe(false);
  });
});
