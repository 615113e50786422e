import { Interface, Transaction, Wallet } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';

import { loadChainSettlementConfig } from '../config';
import { feesOfSigned, TransferSigner } from './transfer-signer';

describe('TransferSigner', () => {
  const wallet = Wallet.createRandom();
  const usdc = '0x' + '12'.repeat(20);
  const config = loadChainSettlementConfig({
    ONRAMP_MODE: 'production', // Arbitrum One: sandbox mode refuses a mainnet
    RPC_URL: 'https://arb1.example',
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

  it('signs a replacement that differs from the original in its fees only', async () => {
    const fees = { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
    const original = await signer.sign({ recipient, baseUnits: 5n, nonce: 11n, fees });
    const higher = { maxFeePerGas: 3_375_000_000n, maxPriorityFeePerGas: 1_125_000_000n };
    const replacement = await signer.signReplacement(original.rawTx, higher);
    const [a, b] = [Transaction.from(original.rawTx), Transaction.from(replacement.rawTx)];

    expect(replacement.txHash).not.toBe(original.txHash);
    expect([b.nonce, b.to, b.data, b.value, b.gasLimit, b.chainId, b.from]).toEqual([
      a.nonce,
      a.to,
      a.data,
      a.value,
      a.gasLimit,
      a.chainId,
      a.from,
    ]);
    expect(feesOfSigned(original.rawTx)).toEqual(fees);
    expect(feesOfSigned(replacement.rawTx)).toEqual(higher);
  });

  it("refuses to replace another wallet's transaction", async () => {
    const other = new TransferSigner({ ...config, signerKey: Wallet.createRandom().privateKey });
    const theirs = await other.sign({ recipient, baseUnits: 1n, nonce: 0n, fees: { gasPrice: 1n } });
    await expect(signer.signReplacement(theirs.rawTx, { gasPrice: 2n })).rejects.toThrow(
      /not by this hot wallet/,
    );
  });
});
