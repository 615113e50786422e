import { getAddress, Interface, JsonRpcProvider, Log, zeroPadValue } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';

import { ChainTransfer } from './ledger.types';

const erc20 = new Interface(ERC20_ABI);
const TRANSFER_TOPIC = erc20.getEvent('Transfer')!.topicHash;
const RECEIPT_CONCURRENCY = 16;

export interface ChainTransferQuery {
  usdcAddress: string;
  hotWallets: string[]; // their outgoing Transfer logs are scanned
  txHashes: string[]; // the transactions our books point at, looked up by hash
  fromBlock: number;
  toBlock: number;
  logChunkBlocks: number; // public RPCs cap eth_getLogs ranges
}

// USDC Transfer logs from two angles: the receipts of the transactions the books name, and a scan
// of every outgoing transfer of the hot wallets. The second finds payouts nobody recorded.
export async function readChainTransfers(
  provider: JsonRpcProvider,
  q: ChainTransferQuery,
): Promise<ChainTransfer[]> {
  const token = getAddress(q.usdcAddress);
  const found: ChainTransfer[] = [];
  for (let i = 0; i < q.txHashes.length; i += RECEIPT_CONCURRENCY) {
    const receipts = await Promise.all(
      q.txHashes.slice(i, i + RECEIPT_CONCURRENCY).map((h) => provider.getTransactionReceipt(h)),
    );
    for (const r of receipts) {
      if (r?.status === 1) found.push(...r.logs.flatMap((log) => decode(log, token)));
    }
  }
  if (q.hotWallets.length > 0) {
    const senders = q.hotWallets.map((a) => zeroPadValue(getAddress(a), 32));
    for (let from = q.fromBlock; from <= q.toBlock; from += q.logChunkBlocks) {
      const logs = await provider.getLogs({
        address: token,
        topics: [TRANSFER_TOPIC, senders],
        fromBlock: from,
        toBlock: Math.min(q.toBlock, from + q.logChunkBlocks - 1),
      });
      found.push(...logs.flatMap((log) => decode(log, token)));
    }
  }
  return found;
}

function decode(log: Log, token: string): ChainTransfer[] {
  if (getAddress(log.address) !== token || log.topics[0] !== TRANSFER_TOPIC || log.removed) return [];
  const parsed = erc20.parseLog({ topics: [...log.topics], data: log.data });
  if (!parsed) return [];
  return [
    {
      txHash: log.transactionHash,
      logIndex: log.index,
      blockNumber: log.blockNumber,
      from: String(parsed.args.getValue('from')),
      to: String(parsed.args.getValue('to')),
      value: BigInt(parsed.args.getValue('value') as bigint),
    },
  ];
}
