import { gasLimitFromEstimate, raisedGasLimit } from './gas-limit';

describe('gasLimitFromEstimate', () => {
  it('adds the buffer, rounded up, and stays within the ceiling', () => {
    expect(gasLimitFromEstimate(50_001n, 20, 500_000n)).toEqual({ kind: 'ok', gasLimit: 60_002n });
    expect(gasLimitFromEstimate(450_000n, 20, 500_000n)).toEqual({ kind: 'ok', gasLimit: 500_000n });
  });

  it('refuses an estimate above the ceiling instead of signing a transfer that may burn more', () => {
    expect(gasLimitFromEstimate(500_001n, 20, 500_000n)).toEqual({ kind: 'over-ceiling', needed: 500_001n });
  });
});

describe('raisedGasLimit', () => {
  it('takes what the node wants plus the buffer when that is more than half as much again', () => {
    expect(raisedGasLimit(21_000n, 90_000n, 20, 500_000n)).toBe(108_000n);
    expect(raisedGasLimit(100_000n, 101_000n, 20, 500_000n)).toBe(150_000n);
    expect(raisedGasLimit(100_000n, undefined, 20, 500_000n)).toBe(150_000n);
  });

  it('stops at the ceiling, and says so once it is reached', () => {
    expect(raisedGasLimit(400_000n, undefined, 20, 500_000n)).toBe(500_000n);
    expect(raisedGasLimit(500_000n, undefined, 20, 500_000n)).toBeUndefined();
  });
});
