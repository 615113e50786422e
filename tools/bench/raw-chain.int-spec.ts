import { parseEther, Wallet } from 'ethers';

import { AnvilHandle, deployTestUsdc, localProvider, setEthBalance, startAnvil } from '@onramp/chain';

import { fundWithUsdc, RawSigner } from './raw-chain';

// The bench's raw signer against anvil's pool race (pool-stall.ts in the settlement domain): its
// baseline must finish, and say it was held, instead of waiting forever for a nonce the pool keeps.
describe('the bench raw signer (integration, own anvil)', () => {
  let anvil: AnvilHandle;
  let provider: ReturnType<typeof localProvider>;
  let signer: RawSigner;
  const key = Wallet.createRandom().privateKey;

  beforeAll(async () => {
    anvil = await startAnvil();
    const owner = Wallet.createRandom();
    for (const address of [owner.address, new Wallet(key).address])
      await setEthBalance(anvil.rpcUrl, address, parseEther('10'));
    const usdc = await deployTestUsdc(anvil.rpcUrl, owner.privateKey);
    const env = { RPC_URL: anvil.rpcUrl, USDC_OWNER_KEY: owner.privateKey, USDC_ADDRESS: usdc };
    await fundWithUsdc(env, [key], 10n ** 9n);
    provider = localProvider(anvil.rpcUrl);
    signer = new RawSigner(provider, key, usdc, (await provider.getNetwork()).chainId);
  });

  afterAll(async () => {
    provider?.destroy();
    await anvil?.stop();
  });

  const nonceOf = (tag: 'latest' | 'pending') => provider.getTransactionCount(signer.address, tag);

  it('sends a batch and waits until every transfer is mined', async () => {
    const before = await nonceOf('latest');
    expect(await signer.sendAll(await signer.sign(5, Wallet.createRandom().address, 1n))).toEqual({
      replaced: 0,
    });
    expect(await nonceOf('latest')).toBe(before + 5);
  });

  // The race made on purpose, as the settlement suite does: the node is told the signer's nonce is one
  // lower while the first transfer arrives, then the nonce is put back; the transfers after it queue.
  it('replaces a transfer the pool holds back, and reports it', async () => {
    const nonce = await nonceOf('latest');
    const [first, ...rest] = await signer.sign(3, Wallet.createRandom().address, 1n);
    const setNonce = (n: number) => provider.send('anvil_setNonce', [signer.address, `0x${n.toString(16)}`]);
    await setNonce(nonce - 1);
    await provider.send('eth_sendRawTransaction', [first]);
    await setNonce(nonce);
    expect([await nonceOf('latest'), await nonceOf('pending')]).toEqual([nonce, nonce]);

    expect(await signer.sendAll(rest)).toEqual({ replaced: 1 });
    expect(await nonceOf('latest')).toBe(nonce + 3);
  });
});
