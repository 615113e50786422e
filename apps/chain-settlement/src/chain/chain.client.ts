import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Contract, JsonRpcProvider } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';

export type FeeParams = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

export interface ChainReceipt {
  status: number; // 1 executed, 0 reverted
  blockNumber: number;
}

// Everything settlement reads from or sends to the chain, over plain JSON-RPC. The network is
// fixed by configuration (no detection round-trips) and nothing is cached: nonces and balances
// must be read fresh every time.
@Injectable()
export class ChainClient implements OnApplicationShutdown {
  private readonly provider: JsonRpcProvider;
  private readonly usdc: Contract;

  constructor(@Inject(CHAIN_SETTLEMENT_CONFIG) config: ChainSettlementConfig) {
    this.provider = new JsonRpcProvider(config.rpcUrl, config.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    this.usdc = new Contract(config.usdcAddress, ERC20_ABI, this.provider);
  }

  async chainId(): Promise<number> {
    return Number(await this.provider.send('eth_chainId', []));
  }

  async nonce(address: string, blockTag: 'latest' | 'pending'): Promise<bigint> {
    return BigInt(await this.provider.getTransactionCount(address, blockTag));
  }

  async usdcBalance(address: string): Promise<bigint> {
    return (await this.usdc.getFunction('balanceOf')(address)) as bigint;
  }

  async ethBalance(address: string): Promise<bigint> {
    return this.provider.getBalance(address);
  }

  async fees(): Promise<FeeParams> {
    const fee = await this.provider.getFeeData();
    if (fee.maxFeePerGas !== null && fee.maxPriorityFeePerGas !== null) {
      return { maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas };
    }
    if (fee.gasPrice !== null) return { gasPrice: fee.gasPrice };
    throw new Error('the RPC node reports no fee data');
  }

  async broadcast(rawTx: string): Promise<void> {
    await this.provider.broadcastTransaction(rawTx);
  }

  async receipt(txHash: string): Promise<ChainReceipt | null> {
    const r = await this.provider.getTransactionReceipt(txHash);
    return r && r.status !== null ? { status: r.status, blockNumber: r.blockNumber } : null;
  }

  async blockNumber(): Promise<number> {
    return this.provider.getBlockNumber();
  }

  onApplicationShutdown(): void {
    this.provider.destroy();
  }
}

export const maxGasPrice = (fees: FeeParams): bigint =>
  'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas;
