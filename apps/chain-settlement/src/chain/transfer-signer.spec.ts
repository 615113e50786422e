import { Interface, Transaction, Wallet } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';

import { loadChainSettlementConfig } from '../config';
import { TransferSigner } from './transfer-signer';

describe('TransferSigner', () => {
  const wallet = Wallet.createRandom();
  const usdc = '0x' + '12'.repeat(20);
  const config = loadChainSettlementConfig({
    DATABASE_URL: 'postgres://localhost/x',
    USDC_ADDRESS: usdc,
    SETTLEMENT_SIGNER_KEY: wallet.privateKey,
    CHAIN_ID: '42161',
    SETTLEMENT_GAS_LIMIT: '90000',
  });
  const signer = new TransferSigner(config);
  const recipient = Wallet.createRandom().address;

  it('signs an ERC-20 transfer offline with the given nonce, chain id and fixed gas limit', async () => {
    const fees = { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
    const signed = await signer.sign({ recipient, baseUnits: 106_920_000n, nonce: 7n, fees });
    const tx = Transaction.from(signed.rawTx);

    expect(signer.address).toBe(wallet.address);
    expect(tx.from).toBe(wallet.address);
    expect(tx.hash).toBe(signed.txHash);
    expect(tx.to?.toLowerCase()).toBe(usdc);
    expect(tx.chainId).toBe(42161n);
    expect(tx.nonce).toBe(7);
    expect(tx.gasLimit).toBe(90_000n);
    expect(tx.type).toBe(2);
    expect(tx.maxFeePerGas).toBe(3_000_000_000n);
    expect(tx.value).toBe(0n);
    const call = new Interface(ERC20_ABI).parseTransaction({ data: tx.data });
    expect(call?.name).toBe('transfer');
    expect(call?.args.toArray()).toEqual([recipient, 106_920_000n]);
  });

  it('is deterministic: the same request gives the same bytes (a retry can never pay twice)', async () => {
    const req = { recipient, baseUnits: 1n, nonce: 0n, fees: { gasPrice: 1_000n } };
    const a = await signer.sign(req);
    const b = await signer.sign(req);
    expect(a).toEqual(b);
    expect(Transaction.from(a.rawTx).type).toBe(0);
  });
});
