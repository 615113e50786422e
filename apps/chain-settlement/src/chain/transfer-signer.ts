import { Inject, Injectable } from '@nestjs/common';
import { Interface, Transaction, TransactionRequest, Wallet } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';
import { FeeParams } from '@onramp/settlement-domain';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';

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

  // The same transfer (recipient, amount, nonce, gas limit, chain) with other fees, rebuilt from the
  // stored bytes: a replacement can differ from the original in its fees and nothing else.
  async signReplacement(previousRawTx: string, fees: FeeParams): Promise<SignedTransfer> {
    const previous = Transaction.from(previousRawTx);
    if (previous.from !== this.address)
      throw new Error(`transaction ${previous.hash} was signed by ${previous.from}, not by this hot wallet`);
    const base: TransactionRequest = {
      chainId: previous.chainId,
      nonce: previous.nonce,
      to: previous.to,
      value: previous.value,
      data: previous.data,
      gasLimit: previous.gasLimit,
    };
    return this.signRequest(withFees(base, fees));
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
    return this.signRequest(withFees(base, transfer.fees));
  }

  private async signRequest(request: TransactionRequest): Promise<SignedTransfer> {
    const rawTx = await this.wallet.signTransaction(request);
    return { rawTx, txHash: Transaction.from(rawTx).hash as string };
  }
}

function withFees(base: TransactionRequest, fees: FeeParams): TransactionRequest {
  return 'gasPrice' in fees
    ? { ...base, type: 0, gasPrice: fees.gasPrice }
    : { ...base, type: 2, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}

// The fees a signed transaction offers, read from its bytes.
export function feesOfSigned(rawTx: string): FeeParams {
  const tx = Transaction.from(rawTx);
  if (tx.maxFeePerGas !== null && tx.maxPriorityFeePerGas !== null)
    return { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas };
  if (tx.gasPrice !== null) return { gasPrice: tx.gasPrice };
  throw new Error(`transaction ${tx.hash} carries no fees`);
}
