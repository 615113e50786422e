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

export function isAlreadyKnownClue(err: unknown): boolean {
  if (
    isError(err, 'NONCE_EXPIRED') ||
    isError(err, 'REPLACEMENT_UNDERPRICED') ||
    isError(err, 'TRANSACTION_REPLACED')
  )
    return true;
  return messagesOf(err).some((m) => CLUE_PATTERNS.some((p) => p.test(m)));
}

// One line for logs and last_error: the node's own words, without the transaction bytes ethers appends.
export function describeChainError(err: unknown): string {
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
  return text.slice(0, 500);
}
