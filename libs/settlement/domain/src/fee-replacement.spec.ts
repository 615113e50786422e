import {
  bumpedForReplacement,
  capFees,
  FeeParams,
  isStuck,
  maxGasPrice,
  replacementFees,
} from './fee-replacement';

const gwei = (n: number): bigint => BigInt(Math.round(n * 1e9));

describe('bumpedForReplacement', () => {
  it('adds 12.5 %, rounding up, and always at least one wei', () => {
    expect(bumpedForReplacement(gwei(1))).toBe(1_125_000_000n);
    expect(bumpedForReplacement(1_000_000_001n)).toBe(1_125_000_002n); // 1125000001.125 rounded up
    expect(bumpedForReplacement(8n)).toBe(9n);
    expect(bumpedForReplacement(1n)).toBe(2n);
    expect(bumpedForReplacement(0n)).toBe(1n);
  });
});

describe('replacementFees', () => {
  const previous: FeeParams = { maxFeePerGas: gwei(3), maxPriorityFeePerGas: gwei(1) };
  const quiet: FeeParams = { maxFeePerGas: gwei(2), maxPriorityFeePerGas: gwei(0.5) };
  const cap = gwei(100);

  it('bumps both fee fields by at least 12.5 % when the network is no busier', () => {
    const r = replacementFees(previous, quiet, cap);
    expect(r).toEqual({
      kind: 'replace',
      fees: { maxFeePerGas: 3_375_000_000n, maxPriorityFeePerGas: 1_125_000_000n },
    });
  });

  it('pays what the network asks now when that is more than the minimum bump', () => {
    const busy: FeeParams = { maxFeePerGas: gwei(40), maxPriorityFeePerGas: gwei(5) };
    expect(replacementFees(previous, busy, cap)).toEqual({ kind: 'replace', fees: busy });
  });

  it('stays within the cap, and reports when even the minimum bump is above it', () => {
    const spike: FeeParams = { maxFeePerGas: gwei(500), maxPriorityFeePerGas: gwei(200) };
    expect(replacementFees(previous, spike, cap)).toEqual({
      kind: 'replace',
      fees: { maxFeePerGas: cap, maxPriorityFeePerGas: cap },
    });
    expect(replacementFees(previous, quiet, gwei(3.3))).toEqual({
      kind: 'capped',
      neededWei: 3_375_000_000n,
      capWei: gwei(3.3),
    });
  });

  it('never lets the priority fee exceed the max fee', () => {
    const odd: FeeParams = { maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(1) };
    const r = replacementFees(odd, { maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(9) }, gwei(5));
    expect(r).toEqual({
      kind: 'replace',
      fees: { maxFeePerGas: gwei(1.125), maxPriorityFeePerGas: gwei(1.125) },
    });
  });

  it('keeps a legacy transaction legacy', () => {
    expect(replacementFees({ gasPrice: gwei(2) }, quiet, cap)).toEqual({
      kind: 'replace',
      fees: { gasPrice: gwei(2.25) },
    });
    expect(replacementFees({ gasPrice: gwei(2) }, quiet, gwei(2.2)).kind).toBe('capped');
  });

  it('chains: every replacement is a valid replacement of the one before', () => {
    let fees: FeeParams = previous;
    for (let i = 0; i < 10; i++) {
      const r = replacementFees(fees, quiet, gwei(10));
      if (r.kind !== 'replace') throw new Error('capped too early');
      expect(maxGasPrice(r.fees) * 1000n).toBeGreaterThanOrEqual(maxGasPrice(fees) * 1125n);
      fees = r.fees;
    }
    expect(replacementFees(fees, quiet, gwei(10)).kind).toBe('capped'); // 3 gwei x 1.125^11 > 10 gwei
  });
});

describe('capFees', () => {
  it('caps the max fee and keeps the priority fee below it', () => {
    expect(capFees({ maxFeePerGas: gwei(50), maxPriorityFeePerGas: gwei(20) }, gwei(10))).toEqual({
      maxFeePerGas: gwei(10),
      maxPriorityFeePerGas: gwei(10),
    });
    expect(capFees({ gasPrice: gwei(3) }, gwei(10))).toEqual({ gasPrice: gwei(3) });
  });
});

describe('isStuck', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  it('counts from the first send, and never calls unsent bytes stuck', () => {
    expect(isStuck(new Date(now.getTime() - 60_000), now, 60_000)).toBe(true);
    expect(isStuck(new Date(now.getTime() - 59_999), now, 60_000)).toBe(false);
    expect(isStuck(null, now, 60_000)).toBe(false);
  });
});
