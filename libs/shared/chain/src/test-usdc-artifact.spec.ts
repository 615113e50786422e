import { Interface, Wallet } from 'ethers';

import { ANVIL_ACCOUNT_2_KEY, ANVIL_ACCOUNT_3_KEY, ANVIL_DEPLOYER_KEY, ANVIL_HOT_WALLET_KEY } from './anvil';
import { TEST_USDC_ABI } from './erc20';
import { compileTestUsdc } from './test-usdc-artifact';

describe('compileTestUsdc', () => {
  it('compiles the test token with every function our ABI constant calls', () => {
    const { abi, bytecode } = compileTestUsdc();
    expect(bytecode).toMatch(/^0x[0-9a-f]{200,}$/);
    const compiled = new Interface(abi);
    for (const fragment of new Interface(TEST_USDC_ABI).fragments) {
      const name = 'name' in fragment ? String(fragment.name) : '';
      expect(fragment.type === 'event' ? compiled.getEvent(name) : compiled.getFunction(name)).not.toBeNull();
    }
  });

  it('returns the cached artifact on a second call', () => {
    expect(compileTestUsdc()).toEqual(compileTestUsdc());
  });
});

describe('anvil dev keys', () => {
  it('are the well-known accounts 0 to 3', () => {
    expect(new Wallet(ANVIL_DEPLOYER_KEY).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(new Wallet(ANVIL_HOT_WALLET_KEY).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(new Wallet(ANVIL_ACCOUNT_2_KEY).address).toBe('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
    expect(new Wallet(ANVIL_ACCOUNT_3_KEY).address).toBe('0x90F79bf6EB2c4f870365E785982E1f101E93b906');
  });
});
