import { PUBLIC_DEV_KEYS } from '@onramp/config';

import { loadChainSettlementConfig } from './config';

const KEY = '0x' + 'ab'.repeat(32);
const base = {
  DATABASE_URL: 'postgres://localhost/x',
  USDC_ADDRESS: '0x' + '12'.repeat(20),
  SETTLEMENT_SIGNER_KEY: KEY,
};

describe('loadChainSettlementConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadChainSettlementConfig(base);
    expect(c).toMatchObject({
      port: 3014,
      rpcUrl: 'http://127.0.0.1:8545',
      chainId: 31337,
      confirmations: 1,
      fxRateEurUsdc: '1.08',
      fxFee: '0.01',
      fxRateMaxAgeSeconds: 300,
      gasLimit: undefined, // estimated per transfer
      gasBufferPercent: 25,
      gasCeiling: 500_000n,
      payoutCaps: { perTransfer: undefined, perDay: undefined },
      usdcBlacklistCheck: true,
      finality: 'confirmations',
      signers: [{ kind: 'local', key: KEY }],
      leaseHeartbeatMs: 2_000,
      pollMs: 500,
      receiptPollMs: 100,
      stuckAfterMs: 60_000,
      localDevChain: true,
      maxFeeWei: 500_000_000_000n,
      rpcTimeoutMs: 10_000,
    });
  });

  it('reads the fee cap in gwei, fractions included, and refuses zero', () => {
    expect(loadChainSettlementConfig({ ...base, SETTLEMENT_MAX_FEE_GWEI: '0.05' }).maxFeeWei).toBe(
      50_000_000n,
    );
    expect(() => loadChainSettlementConfig({ ...base, SETTLEMENT_MAX_FEE_GWEI: '0' })).toThrow(
      /SETTLEMENT_MAX_FEE_GWEI must be above 0/,
    );
    expect(() => loadChainSettlementConfig({ ...base, SETTLEMENT_STUCK_AFTER_SECONDS: '0' })).toThrow(
      /SETTLEMENT_STUCK_AFTER_SECONDS/,
    );
  });

  it('requires the token address and the signer key', () => {
    expect(() => loadChainSettlementConfig({ DATABASE_URL: 'x' })).toThrow(/USDC_ADDRESS is required/);
    expect(() => loadChainSettlementConfig({ ...base, SETTLEMENT_SIGNER_KEY: '' })).toThrow(
      /SETTLEMENT_SIGNER_KEY is required \(or SETTLEMENT_SIGNER_KEYS, or SETTLEMENT_SIGNER_URL\)/,
    );
  });

  it('takes a pool of keys (SETTLEMENT_SIGNER_KEYS) in its order, instead of the one key', () => {
    const other = '0x' + '22'.repeat(32);
    const pool = { ...base, SETTLEMENT_SIGNER_KEY: '', SETTLEMENT_SIGNER_KEYS: `${KEY}, ${other}` };
    expect(loadChainSettlementConfig(pool).signers).toEqual([
      { kind: 'local', key: KEY },
      { kind: 'local', key: other },
    ]);
    expect(() => loadChainSettlementConfig({ ...pool, SETTLEMENT_SIGNER_KEY: KEY })).toThrow(
      /set one of SETTLEMENT_SIGNER_KEYS, SETTLEMENT_SIGNER_KEY or SETTLEMENT_SIGNER_URL/,
    );
    expect(() => loadChainSettlementConfig({ ...pool, SETTLEMENT_SIGNER_KEYS: `${KEY},${KEY}` })).toThrow(
      /SETTLEMENT_SIGNER_KEYS lists a key twice/,
    );
    let message = '';
    try {
      loadChainSettlementConfig({ ...pool, SETTLEMENT_SIGNER_KEYS: `${other},0x${'ab'.repeat(31)}` });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SETTLEMENT_SIGNER_KEYS entry 2 must be/);
    expect(message).not.toContain('ab'.repeat(31)); // never echoes key material
    expect(message).not.toContain('22'.repeat(32));
  });

  it('takes a remote signer (URL, address, authorization) instead of a key, never both', () => {
    const remote = {
      ...base,
      SETTLEMENT_SIGNER_KEY: '',
      SETTLEMENT_SIGNER_URL: 'http://web3signer:9000',
      SETTLEMENT_SIGNER_ADDRESS: '0x' + '34'.repeat(20),
      SETTLEMENT_SIGNER_AUTHORIZATION: 'Bearer s3cret',
    };
    expect(loadChainSettlementConfig(remote).signers).toEqual([
      {
        kind: 'remote',
        url: 'http://web3signer:9000',
        address: '0x' + '34'.repeat(20),
        authorization: 'Bearer s3cret',
      },
    ]);
    expect(() => loadChainSettlementConfig({ ...remote, SETTLEMENT_SIGNER_KEY: KEY })).toThrow(/not both/);
    const production = {
      ...remote,
      ONRAMP_MODE: 'production',
      RPC_URL: 'https://arb1.example',
      CHAIN_ID: '42161',
    };
    expect(() => loadChainSettlementConfig(production)).toThrow(
      /SETTLEMENT_SIGNER_URL must be https in production/,
    );
    const onArbitrum = loadChainSettlementConfig({
      ...production,
      SETTLEMENT_SIGNER_URL: 'https://signer.internal',
    });
    expect(onArbitrum.signers).toMatchObject([{ kind: 'remote' }]);
    expect(onArbitrum.localDevChain).toBe(false); // anvil's pool race is the local chain's alone
    expect(
      loadChainSettlementConfig({ ...production, SETTLEMENT_SIGNER_URL: 'http://127.0.0.1:9000' }).signers,
    ).toMatchObject([{ kind: 'remote' }]);
    expect(() => loadChainSettlementConfig({ ...remote, SETTLEMENT_SIGNER_ADDRESS: '' })).toThrow(
      /SETTLEMENT_SIGNER_ADDRESS must be/,
    );
  });

  it('reads payout caps as exact USDC base units, and refuses a seventh decimal or zero', () => {
    const c = loadChainSettlementConfig({
      ...base,
      SETTLEMENT_MAX_PER_TRANSFER_USDC: '1000.000001',
      SETTLEMENT_MAX_PER_DAY_USDC: '25000',
    });
    expect(c.payoutCaps).toEqual({ perTransfer: 1_000_000_001n, perDay: 25_000_000_000n });
    expect(() => loadChainSettlementConfig({ ...base, SETTLEMENT_MAX_PER_DAY_USDC: '1.0000001' })).toThrow(
      /SETTLEMENT_MAX_PER_DAY_USDC must be a USDC amount/,
    );
    expect(() => loadChainSettlementConfig({ ...base, SETTLEMENT_MAX_PER_TRANSFER_USDC: '0' })).toThrow(
      /SETTLEMENT_MAX_PER_TRANSFER_USDC/,
    );
  });

  it('reads the sanctioned list, the gas limits and the finality rule', () => {
    const listed = '0x' + 'Ab'.repeat(20);
    const c = loadChainSettlementConfig({
      ...base,
      SETTLEMENT_SANCTIONED_ADDRESSES: `${listed}, 0x${'cd'.repeat(20)}`,
      SETTLEMENT_GAS_LIMIT: '120000',
      SETTLEMENT_FINALITY: 'finalized',
    });
    expect(c.sanctionedAddresses).toEqual(new Set([listed.toLowerCase(), '0x' + 'cd'.repeat(20)]));
    expect(c.gasLimit).toBe(120_000n);
    expect(c.finality).toBe('finalized');
    expect(() => loadChainSettlementConfig({ ...base, SETTLEMENT_SANCTIONED_ADDRESSES: '0x12' })).toThrow(
      /not addresses: 0x12/,
    );
    expect(() => loadChainSettlementConfig({ ...base, SETTLEMENT_GAS_LIMIT: '20000' })).toThrow(
      /SETTLEMENT_GAS_LIMIT must be 0 \(estimate\) or at least 21000/,
    );
  });

  it('never repeats the signer key in an error', () => {
    const badKey = '0x' + 'cd'.repeat(31); // one byte short
    let message = '';
    try {
      loadChainSettlementConfig({ ...base, SETTLEMENT_SIGNER_KEY: badKey });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('SETTLEMENT_SIGNER_KEY must be');
    expect(message).not.toContain('cdcd');
  });

  it('refuses a fee of 100 % or more and a zero rate', () => {
    expect(() => loadChainSettlementConfig({ ...base, FX_FEE: '1' })).toThrow(/FX_FEE/);
    expect(() => loadChainSettlementConfig({ ...base, FX_RATE_EUR_USDC: '0.00' })).toThrow(
      /FX_RATE_EUR_USDC/,
    );
    expect(() => loadChainSettlementConfig({ ...base, FX_RATE_EUR_USDC: '1,08' })).toThrow(
      /FX_RATE_EUR_USDC/,
    );
  });

  describe('the wall between sandbox and real money', () => {
    it('refuses to start in sandbox on a mainnet, naming the chain and the mode', () => {
      expect(() => loadChainSettlementConfig({ ...base, CHAIN_ID: '42161' })).toThrow(
        'CHAIN_ID 42161 is Arbitrum One, a network with real money: ONRAMP_MODE=sandbox accepts fake bank credits',
      );
      expect(() =>
        loadChainSettlementConfig({ ...base, ONRAMP_MODE: 'sandbox', CHAIN_ID: '1', SANDBOX_TESTNET: 'x:1' }),
      ).toThrow(/CHAIN_ID 1 is Ethereum.*no setting overrides this/);
    });

    it('runs in sandbox on a known testnet, and on another chain only when SANDBOX_TESTNET names it', () => {
      expect(loadChainSettlementConfig({ ...base, CHAIN_ID: '421614' }).chainId).toBe(421614);
      expect(() => loadChainSettlementConfig({ ...base, CHAIN_ID: '999999' })).toThrow(
        'CHAIN_ID 999999 is not a known testnet',
      );
      expect(
        loadChainSettlementConfig({ ...base, CHAIN_ID: '999999', SANDBOX_TESTNET: 'my-devnet:999999' })
          .chainId,
      ).toBe(999999);
    });

    const production = {
      ...base,
      ONRAMP_MODE: 'production',
      RPC_URL: 'https://arb1.example',
      CHAIN_ID: '42161',
    };

    it('runs in production on a mainnet with explicit RPC_URL, CHAIN_ID and a real key', () => {
      expect(loadChainSettlementConfig(production)).toMatchObject({ mode: 'production', chainId: 42161 });
    });

    it('refuses production without RPC_URL or CHAIN_ID (no local defaults)', () => {
      expect(() => loadChainSettlementConfig({ ...production, RPC_URL: '' })).toThrow(
        'RPC_URL is required in production mode',
      );
      expect(() => loadChainSettlementConfig({ ...production, CHAIN_ID: '' })).toThrow(
        'CHAIN_ID is required in production mode',
      );
    });

    it.each(PUBLIC_DEV_KEYS.map((k, i) => [i, k]))(
      'refuses anvil dev account %i as the production signer, without echoing the key',
      (_i, key) => {
        let message = '';
        try {
          loadChainSettlementConfig({ ...production, SETTLEMENT_SIGNER_KEY: key });
        } catch (err) {
          message = (err as Error).message;
        }
        expect(message).toContain('SETTLEMENT_SIGNER_KEY is a public anvil/hardhat development key');
        expect(message).not.toContain(key.slice(2, 12));
      },
    );
  });
});
