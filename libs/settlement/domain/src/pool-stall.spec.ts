import { dueForStallCheck, isPoolStalled, POOL_STALL_AFTER_MS } from './pool-stall';

describe('dueForStallCheck', () => {
  const sent = new Date('2026-11-29T10:00:00Z');
  const after = (ms: number) => new Date(sent.getTime() + ms);

  it('never checks bytes not sent yet', () => {
    expect(dueForStallCheck(null, after(60_000), 0)).toBe(false);
  });

  it(`checks a first transaction ${POOL_STALL_AFTER_MS} ms after its first send`, () => {
    expect(dueForStallCheck(sent, after(POOL_STALL_AFTER_MS - 1), 0)).toBe(false);
    expect(dueForStallCheck(sent, after(POOL_STALL_AFTER_MS), 0)).toBe(true);
  });

  it('waits twice as long for each earlier replacement', () => {
    expect(dueForStallCheck(sent, after(2 * POOL_STALL_AFTER_MS - 1), 1)).toBe(false);
    expect(dueForStallCheck(sent, after(2 * POOL_STALL_AFTER_MS), 1)).toBe(true);
    expect(dueForStallCheck(sent, after(8 * POOL_STALL_AFTER_MS - 1), 3)).toBe(false);
    expect(dueForStallCheck(sent, after(8 * POOL_STALL_AFTER_MS), 3)).toBe(true);
  });
});

describe('isPoolStalled', () => {
  it('is stalled when the pending nonce stays at the nonce of a transaction without receipt', () => {
    expect(isPoolStalled(7n, 7n, false)).toBe(true);
  });

  it('is not stalled when the transaction is ready (pending nonce above it) or mined', () => {
    expect(isPoolStalled(7n, 8n, false)).toBe(false);
    expect(isPoolStalled(7n, 12n, false)).toBe(false);
    expect(isPoolStalled(7n, 7n, true)).toBe(false);
  });

  it('leaves a missing lower nonce alone (pending nonce below the transaction)', () => {
    expect(isPoolStalled(7n, 6n, false)).toBe(false);
  });
});
