// A race in the transaction pool of anvil (the local development chain): the pool works out what a
// new transaction waits for from the account's nonce when it arrives. When the block that mines its
// predecessor is written between that read and the transaction's entry, the transaction waits for a
// predecessor that will never come again: the node took it, yet it is not ready, and every later
// nonce of the signer queues behind it. Sending the same bytes again does not help ("already
// imported"); a new transaction for that nonce does. Left alone, the stuck path would replace it
// only after SETTLEMENT_STUCK_AFTER_SECONDS (a minute), holding the signer's whole backlog.
//
// The node tells: its pending nonce (what the account's next transaction would be once every ready
// one is mined) stays at the nonce of a transaction it took and has not mined.

// How long after its first send a transaction without receipt may be checked for the stall. Its
// pending nonce is right the moment the node answers the send; the margin keeps the check (one
// JSON-RPC call) off the common path, where a local chain mines within the second.
export const POOL_STALL_AFTER_MS = 2_000;

// Whether a transaction sent at `firstSentAt`, the settlement's `replacements`-th successor, is due
// for the check. The wait doubles with each earlier replacement: if a node ever answered this way
// for another reason, the settlement would get a successor every few seconds, then ever more
// seldom, until the stuck path's minute takes over.
export function dueForStallCheck(firstSentAt: Date | null, now: Date, replacements: number): boolean {
  if (firstSentAt === null) return false;
  return now.getTime() - firstSentAt.getTime() >= POOL_STALL_AFTER_MS * 2 ** Math.min(replacements, 10);
}

// The node took the transaction of `nonce` (it answered the send), has no receipt for it, and its
// pending nonce for the signer is that very nonce: the transaction is held outside the ready queue.
// A pending nonce below it means a lower nonce is missing (not this transaction's doing); above it,
// the transaction is ready or mined.
export function isPoolStalled(nonce: bigint, pendingNonce: bigint, hasReceipt: boolean): boolean {
  return !hasReceipt && pendingNonce === nonce;
}
