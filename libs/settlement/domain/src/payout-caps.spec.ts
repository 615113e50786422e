import { checkPayoutCaps } from './payout-caps';

describe('checkPayoutCaps', () => {
  const caps = { perTransfer: 1_000_000_000n, perDay: 5_000_000_000n }; // 1,000 and 5,000 USDC

  it('lets a transfer through up to and including each cap', () => {
    expect(checkPayoutCaps(1_000_000_000n, 4_000_000_000n, caps)).toEqual({ kind: 'within' });
    expect(checkPayoutCaps(1n, 0n, {})).toEqual({ kind: 'within' });
  });

  it('holds a transfer one base unit over the per-transfer cap', () => {
    expect(checkPayoutCaps(1_000_000_001n, 0n, caps)).toEqual({
      kind: 'over-per-transfer',
      amount: 1_000_000_001n,
      cap: 1_000_000_000n,
    });
  });

  it('holds a transfer that would take the rolling 24 h total one base unit over', () => {
    expect(checkPayoutCaps(1_000_000_000n, 4_000_000_001n, caps)).toMatchObject({ kind: 'over-per-day' });
    expect(checkPayoutCaps(5_000_000_001n, 0n, { perDay: 5_000_000_000n })).toMatchObject({
      kind: 'over-per-day',
    });
  });
});
