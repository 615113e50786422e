import { Transaction, TransactionRequest, Wallet } from 'ethers';

import { ChainSettlementConfig } from '../config';
import { TransferSigner } from './transfer-signer';

// Signs offline with the hot wallet key held in this process (SETTLEMENT_SIGNER_KEY).
export class LocalKeySigner extends TransferSigner {
  private readonly wallet: Wallet;
  readonly address: string;
  protected override readonly keyInProcess = true; // ethers signs with this.wallet's own key

  constructor(config: ChainSettlementConfig, key: string) {
    super(config);
    this.wallet = new Wallet(key);
    this.address = this.wallet.address;
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
