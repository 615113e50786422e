import { JsonRpcProvider } from 'ethers';

// How the chain packed a burst's transfers into blocks. anvil 1.7.1 (the newest on npm) mines a
// block per wake-up of its pool; when a transaction enters the pool while a block is being written,
// the pool can lose track of which ready transaction follows which, and then mines empty blocks and
// blocks of one transaction while a hundred or more wait ready. Each block costs anvil about as much
// as fifty transfers, so such a drain runs at a third of its pace. The note says when that happened,
// so a slow drain is read as the chain node's, not the platform's (docs/performance-journal.md,
// "Session of 2026-12-01 (ninth part)").

export interface BlockPacking {
  blocks: number;
  empty: number; // blocks without a transaction
  single: number; // blocks of exactly one
  transactions: number;
}

export function packingOf(transactionsPerBlock: number[]): BlockPacking {
  return {
    blocks: transactionsPerBlock.length,
    empty: transactionsPerBlock.filter((n) => n === 0).length,
    single: transactionsPerBlock.filter((n) => n === 1).length,
    transactions: transactionsPerBlock.reduce((sum, n) => sum + n, 0),
  };
}

export function formatPacking(p: BlockPacking): string {
  const perBlock = p.blocks > 0 ? (p.transactions / p.blocks).toFixed(1) : '0';
  return `${p.blocks} blocks of ${perBlock} tx (${p.empty} empty, ${p.single} of one)`;
}

export async function chainHead(chain: JsonRpcProvider): Promise<number> {
  return Number(await chain.send('eth_blockNumber', []));
}

// The blocks after `afterBlock` up to `toBlock`, both block numbers. ethers sends the calls of one
// tick as one JSON-RPC batch.
export async function blockPacking(
  chain: JsonRpcProvider,
  afterBlock: number,
  toBlock: number,
): Promise<BlockPacking> {
  const numbers = Array.from({ length: Math.max(0, toBlock - afterBlock) }, (_, i) => afterBlock + 1 + i);
  const blocks = await Promise.all(
    numbers.map(
      (n) =>
        chain.send('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]) as Promise<{
          transactions?: unknown[];
        } | null>,
    ),
  );
  return packingOf(blocks.map((b) => b?.transactions?.length ?? 0));
}
