import {
  assertTransition,
  canTransition,
  InvalidOrderTransitionError,
  isOrderStatus,
  isTerminal,
  ORDER_STATUSES,
} from './order-status';

describe('order state machine', () => {
  it('lets a CREATED order complete or fail', () => {
    expect(canTransition('CREATED', 'COMPLETED')).toBe(true);
    expect(canTransition('CREATED', 'FAILED')).toBe(true);
    expect(() => assertTransition('CREATED', 'COMPLETED')).not.toThrow();
  });

  it('never changes a terminal order', () => {
    for (const from of ['COMPLETED', 'FAILED'] as const) {
      expect(isTerminal(from)).toBe(true);
      for (const to of ORDER_STATUSES) {
        expect(canTransition(from, to)).toBe(false);
        expect(() => assertTransition(from, to)).toThrow(InvalidOrderTransitionError);
      }
    }
  });

  it('does not go back to CREATED or loop on CREATED', () => {
    expect(isTerminal('CREATED')).toBe(false);
    expect(canTransition('CREATED', 'CREATED')).toBe(false);
    expect(() => assertTransition('FAILED', 'CREATED')).toThrow('an order cannot go from FAILED to CREATED');
  });

  it('recognises status values', () => {
    expect(isOrderStatus('COMPLETED')).toBe(true);
    expect(isOrderStatus('completed')).toBe(false);
    expect(isOrderStatus(undefined)).toBe(false);
  });
});
