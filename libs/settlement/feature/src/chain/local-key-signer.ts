import { TransactionRequest, Wallet } from 'ethers';

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

  protected signRequest(request: TransactionRequest): Promise<string> {
    return this.wallet.signTransaction(request);
  }
}
