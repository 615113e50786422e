import { Transaction, TransactionRequest, Wallet } from 'ethers';

import { Secp256k1Key, signEip1559 } from '@onramp/chain';

import { ChainSettlementConfig } from '../config';
import { SignedTransfer, TransferSigner } from './transfer-signer';

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

  // A type 2 transaction (every chain with EIP-1559 fees, Arbitrum's included) is encoded and signed by
  // hand from the request's own fields, the bytes those of ethers' Wallet.signTransaction (checked in
  // @onramp/chain's eip1559-transfer.spec.ts), at about 40 % of its CPU: the signature is the payout
  // path's largest single cost (docs/performance.md). There is nothing to decode and compare: the
  // bytes are written from the request. Legacy fees go the way of any signer.
  protected override async signChecked(request: TransactionRequest): Promise<SignedTransfer> {
    if (request.type !== 2) return super.signChecked(request);
    return signEip1559(this.key, {
      chainId: BigInt(request.chainId as bigint),
      nonce: BigInt(request.nonce as number),
      maxPriorityFeePerGas: BigInt(request.maxPriorityFeePerGas as bigint),
      maxFeePerGas: BigInt(request.maxFeePerGas as bigint),
      gasLimit: BigInt(request.gasLimit as bigint),
      to: String(request.to),
      value: BigInt(request.value as bigint),
      data: String(request.data),
    });
  }

  // What Wallet.signTransaction does, less resolving `to` (already an address here) and less decoding
  // the bytes again for the checks: the transaction object that was signed is handed on with them.
  protected override async signedTransaction(
    request: TransactionRequest,
  ): Promise<{ rawTx: string; tx: Transaction }> {
    const tx = Transaction.from(request as Parameters<typeof Transaction.from>[0]);
    tx.signature = this.wallet.signingKey.sign(tx.unsignedHash);
    return { rawTx: tx.serialized, tx };
  }

  protected async signRequest(request: TransactionRequest): Promise<string> {
    return (await this.signedTransaction(request)).rawTx;
  }
}
