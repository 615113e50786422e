import { Contract, Wallet, parseEther, parseUnits } from 'ethers';

import { AnvilHandle, startAnvil } from './anvil';
import { loadLocalChainConfig } from './config';
import { TEST_USDC_ABI } from './erc20';
import { bootstrapLocalChain, localProvider, setEthBalance } from './local-chain';

// Uses the run's shared chain when the global setup started one; fresh random wallets keep this
// suite from racing other suites for a dev account's nonce.
describe('local chain with the test USDC', () => {
  let anvil: AnvilHandle | undefined;
  let rpcUrl: string;

  beforeAll(async () => {
    const { rpcUrl: shared } = loadLocalChainConfig();
    if (shared) {
      rpcUrl = shared;
    } else {
      anvil = await startAnvil();
      rpcUrl = anvil.rpcUrl;
    }
  });
  afterAll(async () => anvil?.stop());

  it('deploys, mints, transfers, and reverts a transfer to a blacklisted address', async () => {
    const provider = localProvider(rpcUrl);
    const owner = Wallet.createRandom().connect(provider);
    const alice = Wallet.createRandom().connect(provider);
    const bob = Wallet.createRandom().address;
    const blocked = Wallet.createRandom().address;
    await setEthBalance(rpcUrl, owner.address, parseEther('10'));
    await setEthBalance(rpcUrl, alice.address, parseEther('10'));

    const { usdcAddress } = await bootstrapLocalChain({
      rpcUrl,
      deployerKey: owner.privateKey,
      fundAddresses: [alice.address],
      usdcPerAddress: parseUnits('1000', 6),
    });
    const asOwner = new Contract(usdcAddress, TEST_USDC_ABI, owner);
    const asAlice = new Contract(usdcAddress, TEST_USDC_ABI, alice);
    expect(await asAlice.getFunction('decimals')()).toBe(6n);
    expect(await asAlice.getFunction('balanceOf')(alice.address)).toBe(parseUnits('1000', 6));

    const receipt = await (await asAlice.getFunction('transfer')(bob, parseUnits('12.5', 6))).wait();
    expect(receipt.status).toBe(1);
    expect(await asAlice.getFunction('balanceOf')(bob)).toBe(parseUnits('12.5', 6));
    expect(await asAlice.getFunction('balanceOf')(alice.address)).toBe(parseUnits('987.5', 6));

    await (await asOwner.getFunction('blacklist')(blocked)).wait();
    // a fixed gas limit skips estimation, so the revert happens on chain like a real payout's would
    const reverted = await asAlice.getFunction('transfer')(blocked, 1n, { gasLimit: 100_000n });
    await expect(reverted.wait()).rejects.toMatchObject({ code: 'CALL_EXCEPTION', receipt: { status: 0 } });
    expect(await asAlice.getFunction('balanceOf')(blocked)).toBe(0n);
    // estimation refuses it up front too
    await expect(asAlice.getFunction('transfer')(blocked, 1n)).rejects.toMatchObject({
      code: 'CALL_EXCEPTION',
    });

    await (await asOwner.getFunction('unBlacklist')(blocked)).wait();
    await (await asAlice.getFunction('transfer')(blocked, 1n)).wait();
    expect(await asAlice.getFunction('balanceOf')(blocked)).toBe(1n);

    // only the owner mints
    await expect(asAlice.getFunction('mint')(alice.address, 1n)).rejects.toMatchObject({
      code: 'CALL_EXCEPTION',
    });
    provider.destroy();
  });
});
