// Fees of one transaction: EIP-1559 (type 2) or legacy (type 0), in wei per gas.
export type FeeParams = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

// Nodes take a transaction with an already-pending nonce only if it pays more: geth wants +10 % on
// both fee fields, other clients +12.5 %. We bump by the larger, so every node accepts the replacement.
export const REPLACEMENT_BUMP_PER_MILLE = 125n;

export const maxGasPrice = (fees: FeeParams): bigint =>
  'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas;

const priorityOf = (fees: FeeParams): bigint =>
  'gasPrice' in fees ? fees.gasPrice : fees.maxPriorityFeePerGas;

// The least a replacement may pay: +12.5 % rounded up, and at least one wei more.
export function bumpedForReplacement(wei: bigint): bigint {
  const bumped = (wei * (1000n + REPLACEMENT_BUMP_PER_MILLE) + 999n) / 1000n;
  return bumped > wei ? bumped : wei + 1n;
}

// What the network asks for, never above the operator's cap (a fee spike must not drain the hot wallet).
export function capFees(fees: FeeParams, capWei: bigint): FeeParams {
  if ('gasPrice' in fees) return { gasPrice: min(fees.gasPrice, capWei) };
  const maxFeePerGas = min(fees.maxFeePerGas, capWei);
  return { maxFeePerGas, maxPriorityFeePerGas: min(fees.maxPriorityFeePerGas, maxFeePerGas) };
}

export type ReplacementFees =
  { kind: 'replace'; fees: FeeParams } | { kind: 'capped'; neededWei: bigint; capWei: bigint }; // the cap forbids the minimum bump

// Fees for a same-nonce replacement of `previous`: at least the minimum bump on every field, or
// what the network asks now if that is more, within the cap. Keeps the transaction type.
export function replacementFees(previous: FeeParams, network: FeeParams, capWei: bigint): ReplacementFees {
  if ('gasPrice' in previous) {
    const needed = bumpedForReplacement(previous.gasPrice);
    if (needed > capWei) return { kind: 'capped', neededWei: needed, capWei };
    return { kind: 'replace', fees: { gasPrice: min(max(needed, maxGasPrice(network)), capWei) } };
  }
  const minPriority = bumpedForReplacement(previous.maxPriorityFeePerGas);
  const minMax = bumpedForReplacement(previous.maxFeePerGas);
  const needed = max(minMax, minPriority);
  if (needed > capWei) return { kind: 'capped', neededWei: needed, capWei };
  const maxFeePerGas = min(max(needed, maxGasPrice(network)), capWei);
  const maxPriorityFeePerGas = min(max(minPriority, priorityOf(network)), maxFeePerGas);
  return { kind: 'replace', fees: { maxFeePerGas, maxPriorityFeePerGas } };
}

// A broadcast transaction without a receipt this long after it first reached a node is underpriced
// (or was dropped): it is replaced. Never-sent bytes are not stuck, they are sent first.
export function isStuck(firstSentAt: Date | null, now: Date, stuckAfterMs: number): boolean {
  return firstSentAt !== null && now.getTime() - firstSentAt.getTime() >= stuckAfterMs;
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
