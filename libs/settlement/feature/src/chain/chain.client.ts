import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { FetchRequest, JsonRpcProvider } from 'ethers';

import {
  BALANCE_OF_SELECTOR,
  decodeBool,
  decodeUint256,
  encodeAddressCall,
  encodeErc20Transfer,
  IS_BLACKLISTED_SELECTOR,
  NodeDecodingJsonRpcProvider,
} from '@onramp/chain';
import { FeeParams } from '@onramp/settlement-domain';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { withDeadline } from './rpc-deadline';

// ethers' default tip when the node does not answer eth_maxPriorityFeePerGas (getFeeData's rule).
const DEFAULT_PRIORITY_FEE = 1_000_000_000n;

// A JSON-RPC quantity ("0x1a"), or null when the node sent none or something else.
function quantityOrNull(value: unknown): bigint | null {
  return typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value) ? BigInt(value) : null;
}

function quantity(value: unknown, method: string): bigint {
  const n = quantityOrNull(value);
  if (n === null) throw new Error(`${method}: the node answered ${JSON.stringify(value)}, not a quantity`);
  return n;
}

export interface ChainReceipt {
  txHash: string;
  status: number; // 1 executed, 0 reverted
  blockNumber: number;
}

// Everything settlement reads from or sends to the chain, over plain JSON-RPC. The network is
// fixed by configuration (no detection round-trips) and nothing is cached: nonces and balances
// must be read fresh every time. Every call is bounded by RPC_TIMEOUT_MS: a hung node must not
// hold a settlement row lock (or the signer lock) for minutes.
// The calls of a signing pass are sent as they are and their answers read by hand (call data and
// words of the ABI, quantities): ethers' Contract and account helpers checksum every address (a
// keccak each), resolve names and format whole blocks, on every pass (docs/performance-journal.md). The
// provider still batches calls made together and maps a node's errors as it does for its own calls.
@Injectable()
export class ChainClient implements OnApplicationShutdown {
  private readonly provider: JsonRpcProvider;
  private readonly usdcAddress: string;
  private readonly timeoutMs: number;

  constructor(@Inject(CHAIN_SETTLEMENT_CONFIG) config: ChainSettlementConfig) {
    this.timeoutMs = config.rpcTimeoutMs;
    const request = new FetchRequest(config.rpcUrl);
    // A little later than our own deadline, which fires first and names the call; this one frees the socket.
    request.timeout = config.rpcTimeoutMs + 1000;
    // batchStallTime 0: calls made together still share one HTTP request, but a lone call is not
    // held back 10 ms waiting for company (a signing does several in a row under the signer lock).
    this.provider = new NodeDecodingJsonRpcProvider(request, config.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
      batchStallTime: 0,
    });
    this.usdcAddress = config.usdcAddress;
  }

  async chainId(): Promise<number> {
    return Number(await this.bounded('eth_chainId', this.provider.send('eth_chainId', [])));
  }

  async nonce(address: string, blockTag: 'latest' | 'pending'): Promise<bigint> {
    return this.quantityOf('eth_getTransactionCount', [address, blockTag]);
  }

  async usdcBalance(address: string): Promise<bigint> {
    return decodeUint256(
      await this.bounded('eth_call balanceOf', this.viewCall(BALANCE_OF_SELECTOR, address)),
    );
  }

  // Whether the token refuses transfers to this account (a transfer to it would revert). Circle's
  // USDC (FiatToken) answers isBlacklisted; so does our test token.
  async isBlacklisted(account: string): Promise<boolean> {
    return decodeBool(
      await this.bounded('eth_call isBlacklisted', this.viewCall(IS_BLACKLISTED_SELECTOR, account)),
    );
  }

  // What a USDC transfer from `from` needs, by the node's own estimate (an L2's node includes its
  // L1 data cost). Throws when the transfer would revert.
  // Sent as it is: ethers' estimateGas would first copy the request and checksum both addresses (a
  // keccak each); a refusal is the same error either way (ethers maps it by the JSON-RPC method).
  async estimateTransferGas(from: string, recipient: string, baseUnits: bigint): Promise<bigint> {
    const call = { from, to: this.usdcAddress, data: encodeErc20Transfer(recipient, baseUnits) };
    return BigInt(await this.bounded('eth_estimateGas', this.provider.send('eth_estimateGas', [call])));
  }

  // The number of the node's 'safe' or 'finalized' block, or null when the node does not offer the tag.
  async taggedBlockNumber(tag: 'safe' | 'finalized'): Promise<number | null> {
    try {
      // the block's number only: ethers' getBlock formats the whole block
      const block = (await this.bounded(
        `eth_getBlockByNumber ${tag}`,
        this.provider.send('eth_getBlockByNumber', [tag, false]),
      )) as { number?: unknown } | null;
      return block ? Number(quantity(block.number, `eth_getBlockByNumber ${tag}`)) : null;
    } catch (err) {
      if (
        /unknown block|not supported|invalid (block|argument)|unsupported/i.test(
          String((err as Error).message),
        )
      )
        return null;
      throw err;
    }
  }

  async ethBalance(address: string): Promise<bigint> {
    return this.quantityOf('eth_getBalance', [address, 'latest']);
  }

  // ethers' getFeeData, asked as three plain calls in one batch: with a base fee in the latest block,
  // twice the base fee plus the node's suggested tip (1 gwei when it has none); else the gas price.
  async fees(): Promise<FeeParams> {
    const [block, tip, gasPrice] = await this.bounded(
      'fee data',
      Promise.all([
        this.provider.send('eth_getBlockByNumber', ['latest', false]) as Promise<{
          baseFeePerGas?: unknown;
        } | null>,
        this.provider.send('eth_maxPriorityFeePerGas', []).then(quantityOrNull, () => null),
        this.provider.send('eth_gasPrice', []).then(quantityOrNull, () => null),
      ]),
    );
    const baseFee = quantityOrNull(block?.baseFeePerGas); // zero reads as none, as in ethers
    if (baseFee) {
      const maxPriorityFeePerGas = tip ?? DEFAULT_PRIORITY_FEE;
      return { maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas };
    }
    if (gasPrice !== null) return { gasPrice };
    throw new Error('the RPC node reports no fee data');
  }

  // A timeout here says nothing about whether the node got the bytes: the caller treats it as
  // "maybe sent" and finds out from receipts.
  async broadcast(rawTx: string): Promise<void> {
    await this.bounded('eth_sendRawTransaction', this.provider.send('eth_sendRawTransaction', [rawTx]));
  }

  // Sends these signed transactions at once (calls made together share one JSON-RPC batch, which a node
  // may take in any order). One answer per transaction: null when the node took it, else why not (a
  // timeout included: maybe sent).
  async broadcastAll(rawTxs: readonly string[]): Promise<(Error | null)[]> {
    return Promise.all(
      rawTxs.map((raw) =>
        this.broadcast(raw).then(
          () => null,
          (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
        ),
      ),
    );
  }

  // The raw JSON-RPC answer, of which only the status and the block are read: ethers' formatted
  // receipt checksums every address of every log (a keccak each), on every look while in flight.
  async receipt(txHash: string): Promise<ChainReceipt | null> {
    const r = (await this.bounded(
      'eth_getTransactionReceipt',
      this.provider.send('eth_getTransactionReceipt', [txHash]),
    )) as { status?: string | null; blockNumber?: string | null } | null;
    if (!r || r.status == null || r.blockNumber == null) return null; // pending, or no status (pre-Byzantium)
    return { txHash, status: Number(r.status), blockNumber: Number(r.blockNumber) };
  }

  // The receipt of whichever of these hashes was mined. They share one nonce, so at most one is.
  async receiptOfAny(txHashes: readonly string[]): Promise<ChainReceipt | null> {
    const receipts = await Promise.all(txHashes.map((h) => this.receipt(h)));
    return receipts.find((r) => r !== null) ?? null;
  }

  async blockNumber(): Promise<number> {
    return Number(await this.quantityOf('eth_blockNumber', []));
  }

  onApplicationShutdown(): void {
    this.provider.destroy();
  }

  // A call whose answer is one JSON-RPC quantity, bounded by RPC_TIMEOUT_MS.
  private async quantityOf(method: string, params: unknown[]): Promise<bigint> {
    return quantity(await this.bounded(method, this.provider.send(method, params)), method);
  }

  private viewCall(selector: string, account: string): Promise<unknown> {
    const call = { to: this.usdcAddress, data: encodeAddressCall(selector, account) };
    return this.provider.send('eth_call', [call, 'latest']);
  }

  private bounded<T>(method: string, work: Promise<T>): Promise<T> {
    return withDeadline(work, this.timeoutMs, method);
  }
}
