import { HDNodeWallet, JsonRpcProvider, parseEther, Wallet } from 'ethers';

import { AnvilHandle, localProvider, setEthBalance, startAnvil } from '@onramp/chain';

import { OrderedRpcConnection, RpcAnswerError } from './ordered-rpc';

const SINK = '0x000000000000000000000000000000000000dEaD';

// Pipelined sends against a real anvil of its own (mining a block per transaction, as the
// platform's local chain does): the node must take them in the order they were made, or it parks
// the gapped nonces and mines them only when they are replaced.
describe('OrderedRpcConnection against anvil (integration)', () => {
  let anvil: AnvilHandle;
  let provider: JsonRpcProvider;
  let rpc: OrderedRpcConnection;

  beforeAll(async () => {
    anvil = await startAnvil();
    provider = localProvider(anvil.rpcUrl);
    rpc = new OrderedRpcConnection(anvil.rpcUrl, 10_000);
  });
  afterAll(async () => {
    await rpc.close();
    provider.destroy();
    await anvil.stop();
  });

  const fundedWallet = async (): Promise<HDNodeWallet> => {
    const wallet = Wallet.createRandom();
    await setEthBalance(anvil.rpcUrl, wallet.address, parseEther('100'));
    return wallet;
  };

  const signTransfers = (wallet: HDNodeWallet, firstNonce: number, count: number, gasLimit = 21_000) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        wallet.signTransaction({
          type: 2,
          chainId: anvil.chainId,
          to: SINK,
          value: 1n,
          nonce: firstNonce + i,
          gasLimit,
          maxFeePerGas: 10_000_000_000n,
          maxPriorityFeePerGas: 1_000_000n,
        }),
      ),
    );

  const minedCount = async (address: string, expected: number, withinMs: number): Promise<number> => {
    const until = Date.now() + withinMs;
    let mined = await provider.getTransactionCount(address, 'latest');
    while (mined < expected && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      mined = await provider.getTransactionCount(address, 'latest');
    }
    return mined;
  };

  it('sends 300 transactions back to back; the node takes them in nonce order and mines all', async () => {
    const wallet = await fundedWallet();
    const raw = await signTransfers(wallet, 0, 300);

    const answers = await Promise.all(raw.map((tx) => rpc.call('eth_sendRawTransaction', [tx])));

    expect(answers).toHaveLength(300);
    for (const answer of answers) expect(answer).toMatch(/^0x[0-9a-f]{64}$/);
    // Nothing parked: every nonce mined without a replacement.
    expect(await minedCount(wallet.address, 300, 10_000)).toBe(300);
  });

  it('a refused transaction answers with the node error; the ones after it wait for its nonce', async () => {
    const wallet = await fundedWallet();
    const good = await signTransfers(wallet, 0, 5);
    const [refused] = await signTransfers(wallet, 2, 1, 20_000); // below the 21,000 a transfer costs

    const answers = await Promise.allSettled(
      [good[0], good[1], refused, good[3], good[4]].map((tx) => rpc.call('eth_sendRawTransaction', [tx])),
    );

    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const error = (answers[2] as PromiseRejectedResult).reason as RpcAnswerError;
    expect(error).toBeInstanceOf(RpcAnswerError);
    expect(error.error.message).toMatch(/gas/i);
    expect(await minedCount(wallet.address, 2, 5_000)).toBe(2); // 3 and 4 are held: nonce 2 is missing

    await rpc.call('eth_sendRawTransaction', [good[2]]);
    expect(await minedCount(wallet.address, 5, 10_000)).toBe(5);
  });

  it('answers a call that is not a send too', async () => {
    expect(await rpc.call('eth_chainId', [])).toBe(`0x${anvil.chainId.toString(16)}`);
  });
});
