import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Contract, FetchRequest, JsonRpcProvider } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';
import { FeeParams } from '@onramp/settlement-domain';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { withDeadline } from './rpc-deadline';

export interface ChainReceipt {
  txHash: string;
  status: number; // 1 executed, 0 reverted
  blockNumber: number;
}

// Everything settlement reads from or sends to the chain, over plain JSON-RPC. The network is
// fixed by configuration (no detection round-trips) and nothing is cached: nonces and balances
// must be read fresh every time. Every call is bounded by RPC_TIMEOUT_MS: a hung node must not
// hold a settlement row lock (or the signer lock) for minutes.
@Injectable()
export class ChainClient implements OnApplicationShutdown {
  private readonly provider: JsonRpcProvider;
  private readonly usdc: Contract;
  private readonly timeoutMs: number;

  constructor(@Inject(CHAIN_SETTLEMENT_CONFIG) config: ChainSettlementConfig) {
    this.timeoutMs = config.rpcTimeoutMs;
    const request = new FetchRequest(config.rpcUrl);
    // A little later than our own deadline, which fires first and names the call; this one frees the socket.
    request.timeout = config.rpcTimeoutMs + 1000;
    // batchStallTime 0: calls made together still share one HTTP request, but a lone call is not
    // held back 10 ms waiting for company (a signing does several in a row under the signer lock).
    this.provider = new JsonRpcProvider(request, config.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
      batchStallTime: 0,
    });
    this.usdc = new Contract(config.usdcAddress, ERC20_ABI, this.provider);
  }

  async chainId(): Promise<number> {
    return Number(await this.bounded('eth_chainId', this.provider.send('eth_chainId', [])));
  }

  async nonce(address: string, blockTag: 'latest' | 'pending'): Promise<bigint> {
    const count = this.provider.getTransactionCount(address, blockTag);
    return BigInt(await this.bounded('eth_getTransactionCount', count));
  }

  async usdcBalance(address: string): Promise<bigint> {
    const balance = this.usdc.getFunction('balanceOf')(address) as Promise<bigint>;
    return this.bounded('eth_call balanceOf', balance);
  }

  async ethBalance(address: string): Promise<bigint> {
    return this.bounded('eth_getBalance', this.provider.getBalance(address));
  }

  async fees(): Promise<FeeParams> {
    const fee = await this.bounded('fee data', this.provider.getFeeData());
    if (fee.maxFeePerGas !== null && fee.maxPriorityFeePerGas !== null) {
      return { maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas };
    }
    if (fee.gasPrice !== null) return { gasPrice: fee.gasPrice };
    throw new Error('the RPC node reports no fee data');
  }

  // A timeout here says nothing about whether the node got the bytes: the caller treats it as
  // "maybe sent" and finds out from receipts.
  async broadcast(rawTx: string): Promise<void> {
    await this.bounded('eth_sendRawTransaction', this.provider.send('eth_sendRawTransaction', [rawTx]));
  }

  async receipt(txHash: string): Promise<ChainReceipt | null> {
    const r = await this.bounded('eth_getTransactionReceipt', this.provider.getTransactionReceipt(txHash));
    return r && r.status !== null ? { txHash, status: r.status, blockNumber: r.blockNumber } : null;
  }

  // The receipt of whichever of these hashes was mined. They share one nonce, so at most one is.
  async receiptOfAny(txHashes: readonly string[]): Promise<ChainReceipt | null> {
    const receipts = await Promise.all(txHashes.map((h) => this.receipt(h)));
    return receipts.find((r) => r !== null) ?? null;
  }

  async blockNumber(): Promise<number> {
    return this.bounded('eth_blockNumber', this.provider.getBlockNumber());
  }

  onApplicationShutdown(): void {
    this.provider.destroy();
  }

  private bounded<T>(method: string, work: Promise<T>): Promise<T> {
    return withDeadline(work, this.timeoutMs, method);
  }
}
