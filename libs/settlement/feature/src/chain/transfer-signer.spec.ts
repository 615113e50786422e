import { Interface, Transaction, TransactionRequest, Wallet } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';

import { loadChainSettlementConfig } from '../config';
import { LocalKeySigner } from './local-key-signer';
import { feesOfSigned, SignerMismatchError, TransferSigner } from './transfer-signer';

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
  });
  const signer = new LocalKeySigner(config, wallet.privateKey);
  const gasLimit = 90_000n;
  const recipient = Wallet.createRandom().address;

  it('signs an ERC-20 transfer offline with the given nonce, chain id and gas limit', async () => {
    const fees = { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
    const signed = await signer.sign({ recipient, baseUnits: 106_920_000n, nonce: 7n, fees, gasLimit });
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

  it("writes a type 2 transfer as ethers' Wallet.signTransaction would, byte for byte", async () => {
    const fees = { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
    for (const [nonce, baseUnits] of [
      [0n, 1n],
      [1n, 106_920_000n],
      [300n, 10n ** 15n],
    ] as const) {
      const signed = await signer.sign({ recipient, baseUnits, nonce, fees, gasLimit });
      const tx = Transaction.from(signed.rawTx);
      const theirs = await wallet.signTransaction({
        type: 2,
        chainId: 42161n,
        nonce: Number(nonce),
        to: usdc,
        value: 0n,
        data: tx.data,
        gasLimit,
        ...fees,
      });
      expect(signed.rawTx).toBe(theirs);
      expect(signed.txHash).toBe(tx.hash);
    }
  });

  it('is deterministic: the same request gives the same bytes (a retry can never pay twice)', async () => {
    const req = { recipient, baseUnits: 1n, nonce: 0n, fees: { gasPrice: 1_000n }, gasLimit };
    const a = await signer.sign(req);
    const b = await signer.sign(req);
    expect(a).toEqual(b);
    expect(Transaction.from(a.rawTx).type).toBe(0);
  });

  it('signs a replacement that differs from the original in its fees only', async () => {
    const fees = { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
    const original = await signer.sign({ recipient, baseUnits: 5n, nonce: 11n, fees, gasLimit });
    const higher = { maxFeePerGas: 3_375_000_000n, maxPriorityFeePerGas: 1_125_000_000n };
    const replacement = await signer.signReplacement(original.rawTx, { fees: higher });
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

  it('signs a replacement with a higher gas limit after a node refused the first as too low', async () => {
    const fees = { gasPrice: 5n };
    const original = await signer.sign({ recipient, baseUnits: 5n, nonce: 12n, fees, gasLimit: 21_000n });
    const raised = await signer.signReplacement(original.rawTx, { fees, gasLimit: 60_000n });
    const [a, b] = [Transaction.from(original.rawTx), Transaction.from(raised.rawTx)];
    expect([b.nonce, b.data, b.gasLimit, b.gasPrice]).toEqual([a.nonce, a.data, 60_000n, 5n]);
  });

  it("refuses to replace another wallet's transaction", async () => {
    const other = new LocalKeySigner(config, Wallet.createRandom().privateKey);
    const theirs = await other.sign({
      recipient,
      baseUnits: 1n,
      nonce: 0n,
      fees: { gasPrice: 1n },
      gasLimit,
    });
    await expect(signer.signReplacement(theirs.rawTx, { fees: { gasPrice: 2n } })).rejects.toThrow(
      /not by this hot wallet/,
    );
  });

  // A signer that answers with other bytes than asked: another key, nonce or recipient. Nothing of it is stored.
  class TamperingSigner extends TransferSigner {
    readonly address = wallet.address;
    constructor(
      private readonly key: string,
      private readonly tamper: (r: TransactionRequest) => TransactionRequest,
    ) {
      super(config);
    }
    protected signRequest(request: TransactionRequest): Promise<string> {
      return new Wallet(this.key).signTransaction(this.tamper(request));
    }
  }

  it('refuses bytes from a signer that do not match the request (key, nonce, recipient, chain, gas)', async () => {
    const req = { recipient, baseUnits: 1n, nonce: 3n, fees: { gasPrice: 1n }, gasLimit };
    const cases: Array<[string, TransferSigner]> = [
      ['is signed by', new TamperingSigner(Wallet.createRandom().privateKey, (r) => r)],
      ['has nonce', new TamperingSigner(wallet.privateKey, (r) => ({ ...r, nonce: 4 }))],
      ['goes to', new TamperingSigner(wallet.privateKey, (r) => ({ ...r, to: recipient }))],
      ['is for chain', new TamperingSigner(wallet.privateKey, (r) => ({ ...r, chainId: 1n }))],
      ['has gas limit', new TamperingSigner(wallet.privateKey, (r) => ({ ...r, gasLimit: 1_000_000n }))],
      ['offers fees', new TamperingSigner(wallet.privateKey, (r) => ({ ...r, gasPrice: 1_000n }))],
      [
        'carries data',
        new TamperingSigner(wallet.privateKey, (r) => ({
          ...r,
          data: new Interface(ERC20_ABI).encodeFunctionData('transfer', [recipient, 2n]),
        })),
      ],
    ];
    for (const [problem, tampering] of cases) {
      const err = await tampering.sign(req).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SignerMismatchError);
      expect((err as Error).message).toContain(problem);
    }
  });
});
