// What reconciliation compares: the books (orders, settlements, hot wallets) and the chain (USDC
// Transfer logs). Addresses and hashes are compared lower-cased; amounts are USDC base units.

export interface LedgerOrder {
  uuid: string;
  merchantId: string;
  status: string; // CREATED | COMPLETED | FAILED
  recipientAddress: string;
  transactionHash: string | null;
  sentTokenBaseUnits: bigint | null;
}

export interface LedgerSettlement {
  orderUuid: string;
  merchantId: string;
  state: string; // PENDING | SIGNED | BROADCAST | CONFIRMED | FAILED | CANCELLED
  txHash: string | null; // the current (or mined) transaction
  replacedTxHashes: string[]; // earlier transactions with the same nonce: at most one of all can be mined
  recipientAddress: string;
  tokenBaseUnits: bigint | null;
}

export interface LedgerSnapshot {
  orders: LedgerOrder[];
  settlements: LedgerSettlement[];
  hotWallets: string[];
}

export interface ChainTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  from: string;
  to: string;
  value: bigint;
}

export type MismatchKind =
  | 'transfer-without-completed-order'
  | 'completed-without-transfer'
  | 'duplicate-transfer'
  | 'wrong-amount'
  | 'wrong-recipient'
  | 'tx-hash-differs'
  | 'confirmed-but-order-not-completed'
  | 'credit-for-unknown-order'
  | 'order-paid-twice'
  | 'credit-paid-and-returned'
  // the bank took back a credit that had already paid an order: its payout is unfunded
  | 'credit-reversed-after-paying';

export interface Mismatch {
  kind: MismatchKind;
  orderUuid?: string;
  txHash?: string;
  detail: string;
}

export interface ReconcileFigures {
  orders: number;
  completed: number;
  failed: number;
  nonTerminal: number;
  settlements: number;
  settlementsInFlight: number; // PENDING, SIGNED or BROADCAST
  transfersOnChain: number;
  duplicates: number; // transfers beyond the first one paying the same order
  missing: number; // COMPLETED orders without a transfer on chain
  mismatches: number;
}

export interface Comparison {
  figures: ReconcileFigures;
  mismatches: Mismatch[];
}
