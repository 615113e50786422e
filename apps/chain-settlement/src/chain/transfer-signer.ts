import { Inject, Injectable } from '@nestjs/common';
import { Interface, Transaction, TransactionRequest, Wallet } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { FeeParams } from './chain.client';

export interface TransferToSign {
  recipient: string;
  baseUnits: bigint;
  nonce: bigint;
  fees: FeeParams;
}

export interface SignedTransfer {
  rawTx: string;
  txHash: string;
}

const erc20 = new Interface(ERC20_ABI);

// Signs USDC transfers offline with the hot wallet key. The nonce is always explicit (allocated
// under the signer row lock), and the gas limit is fixed: no estimation, so a transfer that would
// revert is still mined (and reverts), which keeps the wallet's nonces gapless.
@Injectable()
export class TransferSigner {
  private readonly wallet: Wallet;
  readonly address: string;

  constructor(@Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig) {
    this.wallet = new Wallet(config.signerKey);
    this.address = this.wallet.address;
  }

  async sign(transfer: TransferToSign): Promise<SignedTransfer> {
    const base: TransactionRequest = {
      chainId: BigInt(this.config.chainId),
      nonce: Number(transfer.nonce),
      to: this.config.usdcAddress,
      value: 0n,
      data: erc20.encodeFunctionData('transfer', [transfer.recipient, transfer.baseUnits]),
      gasLimit: this.config.gasLimit,
    };
    const request: TransactionRequest =
      'gasPrice' in transfer.fees
        ? { ...base, type: 0, gasPrice: transfer.fees.gasPrice }
        : {
            ...base,
            type: 2,
            maxFeePerGas: transfer.fees.maxFeePerGas,
            maxPriorityFeePerGas: transfer.fees.maxPriorityFeePerGas,
          };
    const rawTx = await this.wallet.signTransaction(request);
    return { rawTx, txHash: Transaction.from(rawTx).hash as string };
  }
}
