import { anvilBinary } from './anvil';
import { loadLocalChainConfig } from './config';

describe('loadLocalChainConfig', () => {
  it('reads ANVIL_BIN, ONRAMP_CACHE and RPC_URL; empty is not given', () => {
    expect(
      loadLocalChainConfig({ ANVIL_BIN: '/opt/anvil', ONRAMP_CACHE: '', RPC_URL: 'http://node' }),
    ).toEqual({
      anvilBin: '/opt/anvil',
      cacheDir: undefined,
      rpcUrl: 'http://node',
    });
  });

  it('a configured anvil binary wins over the packaged one', () => {
    expect(anvilBinary('/opt/anvil')).toBe('/opt/anvil');
  });
});
