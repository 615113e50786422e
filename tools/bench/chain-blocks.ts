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

const BLOCKS_PER_CALL = 200;

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

export async function chainHead(rpcUrl: string): Promise<number> {
  const [answer] = await rpc(rpcUrl, [call(1, 'eth_blockNumber', [])]);
  return Number(answer?.result);
}

// The blocks after `afterBlock` up to `toBlock`, both block numbers.
export async function blockPacking(
  rpcUrl: string,
  afterBlock: number,
  toBlock: number,
): Promise<BlockPacking> {
  const counts: number[] = [];
  for (let from = afterBlock + 1; from <= toBlock; from += BLOCKS_PER_CALL) {
    const numbers = Array.from({ length: Math.min(BLOCKS_PER_CALL, toBlock - from + 1) }, (_, i) => from + i);
    const answers = await rpc(
      rpcUrl,
      numbers.map((n) => call(n, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])),
    );
    for (const a of answers)
      counts.push((a.result as { transactions?: unknown[] } | null)?.transactions?.length ?? 0);
  }
  return packingOf(counts);
}

interface RpcAnswer {
  id: number;
  result?: unknown;
}

function call(id: number, method: string, params: unknown[]): object {
  return { jsonrpc: '2.0', id, method, params };
}

async function rpc(url: string, batch: object[]): Promise<RpcAnswer[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(batch),
  });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as RpcAnswer[];
}
