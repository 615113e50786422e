import { Transaction, TransactionRequest, Wallet } from 'ethers';

import { Secp256k1Key, signEip1559 } from '@onramp/chain';

import { ChainSettlementConfig } from '../config';
import { TransferSigner } from './transfer-signer';

// Signs offline with the hot wallet key held in this process (SETTLEMENT_SIGNER_KEY).
export class LocalKeySigner extends TransferSigner {
  private readonly wallet: Wallet;
  private readonly key: Secp256k1Key;
  readonly address: string;
  protected override readonly keyInProcess = true; // signed here with this.wallet's own key

  constructor(config: ChainSettlementConfig, key: string) {
    super(config);
    this.wallet = new Wallet(key);
    this.key = new Secp256k1Key(this.wallet.privateKey);
    this.address = this.wallet.address;
  }

  // A type 2 transaction (EIP-1559 fees: Arbitrum's, anvil's) is encoded by hand and signed with
  // libsecp256k1 (@onramp/chain's signEip1559, whose bytes are those of ethers' Wallet.signTransaction
  // for the same request): with ethers' decoding below, a little over half the CPU of ethers' transaction
  // object and signer, whose signature was the payout path's largest single cost (docs/performance-journal.md).
  // The bytes are decoded by ethers, not by our encoder, for TransferSigner's comparison with the
  // request. Legacy fees go through ethers' transaction object, less resolving `to` (already an address
  // here); either way the transaction object handed on is the one that was signed or decoded.
  protected override async signedTransaction(
    request: TransactionRequest,
  ): Promise<{ rawTx: string; tx: Transaction; txHash?: string }> {
    if (request.type === 2) {
      const { rawTx, txHash } = signEip1559(this.key, {
        chainId: BigInt(request.chainId as bigint),
        nonce: BigInt(request.nonce as number),
        maxPriorityFeePerGas: BigInt(request.maxPriorityFeePerGas as bigint),
        maxFeePerGas: BigInt(request.maxFeePerGas as bigint),
        gasLimit: BigInt(request.gasLimit as bigint),
        to: String(request.to),
        value: BigInt(request.value as bigint),
        data: String(request.data),
      });
      return { rawTx, tx: Transaction.from(rawTx), txHash };
    }
    const tx = Transaction.from(request as Parameters<typeof Transaction.from>[0]);
    tx.signature = this.wallet.signingKey.sign(tx.unsignedHash);
    return { rawTx: tx.serialized, tx };
  }

  protected async signRequest(request: TransactionRequest): Promise<string> {
    return (await this.signedTransaction(request)).rawTx;
  }
}
