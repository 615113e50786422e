import { HDNodeWallet } from 'ethers';

import { isPublicDevKey, PUBLIC_DEV_KEYS } from './dev-keys';

describe('PUBLIC_DEV_KEYS', () => {
  it('are exactly the ten accounts of the default anvil / hardhat mnemonic', () => {
    const derived = Array.from({ length: 10 }, (_, i) =>
      HDNodeWallet.fromPhrase(
        'test test test test test test test test test test test junk',
        undefined,
        `m/44'/60'/0'/0/${i}`,
      ).privateKey.toLowerCase(),
    );
    expect(PUBLIC_DEV_KEYS).toEqual(derived);
  });

  it('match whatever the case or 0x prefix', () => {
    expect(isPublicDevKey(PUBLIC_DEV_KEYS[3]!.toUpperCase().replace('0X', '0x'))).toBe(true);
    expect(isPublicDevKey(PUBLIC_DEV_KEYS[9]!.slice(2))).toBe(true);
    expect(isPublicDevKey('0x' + 'ab'.repeat(32))).toBe(false);
  });
});
