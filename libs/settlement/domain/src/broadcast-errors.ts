import { isError } from 'ethers';

// Answers to eth_sendRawTransaction that mean "this transaction, or one with its nonce, is already
// known": not failures but clues. The caller looks the receipt up by hash before concluding anything.
const CLUE_PATTERNS = [
  /already known/i,
  /already imported/i,
  /known transaction/i,
  /nonce too low/i,
  /nonce has already been used/i,
  /replacement transaction underpriced/i,
  /transaction underpriced.*replace/i,
];

function messagesOf(err: unknown): string[] {
  const e = err as {
    message?: unknown;
    shortMessage?: unknown;
    info?: { error?: { message?: unknown } };
    error?: { message?: unknown };
  };
  return [e?.message, e?.shortMessage, e?.info?.error?.message, e?.error?.message].filter(
    (m): m is string => typeof m === 'string',
  );
}

// Transport trouble: the node did not answer, or answered "not now". Nothing is known about the
// request's effect (a send may or may not have arrived), so the settlement keeps its state and the
// step is tried again later; the worker backs off while the node stays unreachable.
const TRANSIENT_CODES = new Set([
  'TIMEOUT',
  'NETWORK_ERROR',
  'SERVER_ERROR',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);
const TRANSIENT_PATTERNS = [
  /timeout/i,
  /timed out/i,
  /socket hang up/i,
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT/,
  /too many requests|rate limit|\b429\b/i,
  /header not found/i, // a load-balanced node behind the others
  /missing response/i,
];

export type ChainErrorKind = 'transient' | 'clue' | 'rejected';

// transient: retry later, nothing changed. clue: "already known", "nonce too low", "replacement
// underpriced": look the receipts up by every hash. rejected: the node refused the request itself
// (e.g. insufficient funds): retried with backoff too, but worth an operator's look.
export function classifyChainError(err: unknown): ChainErrorKind {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isAlreadyKnownClue(e)) return 'clue';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return 'transient';
    if (messagesOf(e).some((m) => TRANSIENT_PATTERNS.some((p) => p.test(m)))) return 'transient';
  }
  return 'rejected';
}

export function isAlreadyKnownClue(err: unknown): boolean {
  if (
    isError(err, 'NONCE_EXPIRED') ||
    isError(err, 'REPLACEMENT_UNDERPRICED') ||
    isError(err, 'TRANSACTION_REPLACED')
  )
    return true;
  return messagesOf(err).some((m) => CLUE_PATTERNS.some((p) => p.test(m)));
}

// A node's refusal of a transaction for its gas, which waiting never cures: the same bytes are refused
// again forever, and every later nonce of the wallet waits behind them. 'gas-limit': the limit is
// below what the chain charges up front (an L2 adds its L1 data cost to the intrinsic gas); 'fee':
// the fee is below the node's minimum or the block's base fee. Either way the same nonce is signed
// again with more.
export type GasRejection = { kind: 'gas-limit'; wantedGas?: bigint } | { kind: 'fee' };

const GAS_LIMIT_PATTERNS = [/intrinsic gas too low/i, /\bgas too low\b/i, /gas limit too low/i];
const FEE_PATTERNS = [
  /^transaction underpriced/i,
  /\btransaction underpriced\b(?!.*replace)/i,
  /fee cap less than block base fee/i,
  /max fee per gas less than block base fee/i,
  /gas price too low/i,
];

export function gasRejectionOf(err: unknown): GasRejection | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isAlreadyKnownClue(e)) return undefined;
    const messages = messagesOf(e);
    const gas = messages.find((m) => GAS_LIMIT_PATTERNS.some((p) => p.test(m)));
    if (gas !== undefined) {
      // geth: "have 21000, want 53000"; others: "minimum needed 53000"
      const wanted = /(?:want|minimum needed|needed)[:\s]+(\d+)/i.exec(gas)?.[1];
      return wanted === undefined ? { kind: 'gas-limit' } : { kind: 'gas-limit', wantedGas: BigInt(wanted) };
    }
    if (messages.some((m) => FEE_PATTERNS.some((p) => p.test(m)))) return { kind: 'fee' };
  }
  return undefined;
}

// One line for logs and last_error: the node's own words, without the transaction bytes ethers appends.
export function describeChainError(err: unknown, depth = 0): string {
  const e = err as {
    shortMessage?: unknown;
    info?: { error?: { message?: unknown } };
    error?: { message?: unknown };
  };
  const nested = e?.info?.error?.message ?? e?.error?.message;
  const inner = typeof nested === 'string' ? nested : undefined;
  const short =
    typeof e?.shortMessage === 'string' ? e.shortMessage : err instanceof Error ? err.message : String(err);
  const text = inner && !short.includes(inner) ? `${short} (${inner})` : short;
  const cause = (err as { cause?: unknown })?.cause;
  return (cause && depth < 3 ? `${text}: ${describeChainError(cause, depth + 1)}` : text).slice(0, 500);
}
