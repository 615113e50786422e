import { JsonRpcProvider } from 'ethers';

import { BankFigures, compareBankLedger, readBankLedger } from './bank-ledger';
import { readChainTransfers } from './chain-transfers';
import { compareLedgers } from './compare-ledgers';
import { readLedgerSnapshot } from './ledger-snapshot';
import { Mismatch, ReconcileFigures } from './ledger.types';

export interface ReconcileOptions {
  databaseUrl: string;
  rpcUrl: string;
  usdcAddress: string;
  merchantIds?: string[]; // only these merchants' orders (default: all)
  fromBlock?: number; // where the hot-wallet scan starts (default 0)
  hotWallets?: string[]; // scanned besides the signers the settlement service has used
  logChunkBlocks?: number;
}

export interface ReconcileReport {
  ok: boolean;
  checkedAt: string;
  chainId: number;
  usdcAddress: string;
  fromBlock: number;
  toBlock: number;
  hotWallets: string[];
  figures: ReconcileFigures;
  bank: BankFigures;
  mismatches: Mismatch[];
}

// The chain head is read before the books: a payout the books already show as final was mined at
// or before a block the receipts reach, and the scan never sees a transfer newer than the snapshot
// could know about.
export async function reconcile(opts: ReconcileOptions): Promise<ReconcileReport> {
  const provider = new JsonRpcProvider(opts.rpcUrl, undefined, { staticNetwork: true, batchMaxCount: 20 });
  try {
    const [chainId, toBlock] = await Promise.all([
      provider.getNetwork().then((n) => Number(n.chainId)),
      provider.getBlockNumber(),
    ]);
    const snapshot = await readLedgerSnapshot(opts.databaseUrl);
    const hotWallets = unique([...snapshot.hotWallets, ...(opts.hotWallets ?? [])]);
    const fromBlock = opts.fromBlock ?? 0;
    const merchants = opts.merchantIds ? new Set(opts.merchantIds) : undefined;
    const inScope = merchants ? (o: { merchantId: string }) => merchants.has(o.merchantId) : () => true;
    // receipts only for what the report is about; the scan still attributes the rest
    const txHashes = unique(
      [
        ...snapshot.settlements.filter(inScope).flatMap((s) => [s.txHash, ...s.replacedTxHashes]),
        ...snapshot.orders.filter(inScope).map((o) => o.transactionHash),
      ].filter((h): h is string => Boolean(h)),
    );
    const transfers = await readChainTransfers(provider, {
      usdcAddress: opts.usdcAddress,
      hotWallets,
      txHashes,
      fromBlock,
      toBlock,
      logChunkBlocks: opts.logChunkBlocks ?? 10_000,
    });
    const chain = compareLedgers({ ...snapshot, hotWallets }, transfers, inScope);
    const euros = await readBankLedger(opts.databaseUrl);
    const bank = compareBankLedger(euros.orders, euros.credits);
    const mismatches = [...chain.mismatches, ...bank.mismatches];
    const figures = { ...chain.figures, mismatches: mismatches.length };
    return {
      ok: mismatches.length === 0,
      checkedAt: new Date().toISOString(),
      chainId,
      usdcAddress: opts.usdcAddress,
      fromBlock,
      toBlock,
      hotWallets,
      figures,
      bank: bank.figures,
      mismatches,
    };
  } finally {
    provider.destroy();
  }
}

function unique(values: string[]): string[] {
  const seen = new Map(values.map((v) => [v.toLowerCase(), v]));
  return [...seen.values()];
}
