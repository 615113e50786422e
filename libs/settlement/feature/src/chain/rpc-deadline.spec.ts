import { classifyChainError } from '@onramp/settlement-domain';

import { RpcTimeoutError, withDeadline } from './rpc-deadline';

describe('withDeadline', () => {
  it('gives up on a call that does not answer in time', async () => {
    const never = new Promise<number>(() => undefined);
    await expect(withDeadline(never, 20, 'eth_chainId')).rejects.toThrow('eth_chainId timed out after 20 ms');
    await expect(withDeadline(Promise.resolve(7), 20, 'eth_chainId')).resolves.toBe(7);
  });

  it('times out as a transient chain error: the settlement keeps its state', () => {
    expect(classifyChainError(new RpcTimeoutError('eth_blockNumber', 10_000))).toBe('transient');
  });
});
