import { Transaction, Wallet } from 'ethers';

import * as chain from '@onramp/chain';

import { loadChainSettlementConfig } from '../config';
import { LocalKeySigner } from './local-key-signer';
import { SignerMismatchError } from './transfer-signer';

// The hand-written encoding's bytes are decoded by ethers and compared with the request like any
// signer's: a fault in the encoding is refused, never broadcast.
jest.mock('@onramp/chain', () => {
  const actual = jest.requireActual<typeof chain>('@onramp/chain');
  return { ...actual, signEip1559: jest.fn(actual.signEip1559) };
});

describe('LocalKeySigner', () => {
  const wallet = Wallet.createRandom();
  const config = loadChainSettlementConfig({
    ONRAMP_MODE: 'production',
    RPC_URL: 'https://arb1.example',
    DATABASE_URL: 'postgres://localhost/x',
    USDC_ADDRESS: '0x' + '12'.repeat(20),
    SETTLEMENT_SIGNER_KEY: wallet.privateKey,
    CHAIN_ID: '42161',
  });
  const signer = new LocalKeySigner(config, wallet.privateKey);
  const transfer = {
    recipient: Wallet.createRandom().address,
    baseUnits: 5_000_000n,
    nonce: 9n,
    fees: { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
    gasLimit: 90_000n,
  };
  const signEip1559 = jest.mocked(chain.signEip1559);
  const actual = jest.requireActual<typeof chain>('@onramp/chain').signEip1559;

  afterEach(() => signEip1559.mockImplementation(actual));

  it('signs a type 2 transfer through the hand-written encoding', async () => {
    const signed = await signer.sign(transfer);
    expect(signEip1559).toHaveBeenCalled();
    expect(Transaction.from(signed.rawTx).from).toBe(wallet.address);
  });

  it.each([
    ['has nonce', { nonce: 10n }],
    ['goes to', { to: '0x' + '34'.repeat(20) }],
    ['has gas limit', { gasLimit: 1_000_000n }],
    ['offers fees', { maxFeePerGas: 30_000_000_000n }],
    ['sends value', { value: 1n }],
    ['is for chain', { chainId: 1n }],
  ])('refuses an encoding that %s other than asked', async (problem, change) => {
    signEip1559.mockImplementation((key, fields) => actual(key, { ...fields, ...change }));
    await expect(signer.sign(transfer)).rejects.toThrow(SignerMismatchError);
    await expect(signer.sign(transfer)).rejects.toThrow(problem);
  });
});
