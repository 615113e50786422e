// Gas limits of our USDC transfers. Estimated per transfer (the recipient's first USDC, an L2's L1
// data cost and a token upgrade all change what a transfer needs), with a buffer, never above a
// ceiling: a limit is also a promise of how much ETH a transfer may burn.

export type GasLimitChoice = { kind: 'ok'; gasLimit: bigint } | { kind: 'over-ceiling'; needed: bigint };

// estimate x (100 + bufferPercent) / 100, rounded up; refused when even the bare estimate is above the ceiling.
export function gasLimitFromEstimate(
  estimate: bigint,
  bufferPercent: number,
  ceiling: bigint,
): GasLimitChoice {
  if (estimate > ceiling) return { kind: 'over-ceiling', needed: estimate };
  const buffered = (estimate * BigInt(100 + bufferPercent) + 99n) / 100n;
  return { kind: 'ok', gasLimit: buffered < ceiling ? buffered : ceiling };
}

// The next gas limit after a node refused `previous` as too low ("intrinsic gas too low"): what the
// node said it wants (plus the buffer) or half as much again, whichever is more, within the ceiling.
// undefined when the ceiling is already reached: an operator must raise it.
export function raisedGasLimit(
  previous: bigint,
  wanted: bigint | undefined,
  bufferPercent: number,
  ceiling: bigint,
): bigint | undefined {
  if (previous >= ceiling) return undefined;
  const half = (previous * 3n + 1n) / 2n;
  const asked = wanted === undefined ? 0n : (wanted * BigInt(100 + bufferPercent) + 99n) / 100n;
  const next = asked > half ? asked : half;
  return next < ceiling ? next : ceiling;
}
