import { Interface, Wallet } from 'ethers';

import { ERC20_ABI } from './erc20';
import { encodeErc20Transfer } from './erc20-calldata';

describe('encodeErc20Transfer', () => {
  const erc20 = new Interface(ERC20_ABI);

  it('writes what ethers writes for the same transfer', () => {
    const amounts = [0n, 1n, 106_920_000n, 10n ** 30n, (1n << 256n) - 1n];
    for (let i = 0; i < 20; i++) {
      const recipient = Wallet.createRandom().address;
      for (const spelling of [recipient, recipient.toLowerCase()]) {
        const amount = amounts[i % amounts.length];
        expect(encodeErc20Transfer(spelling, amount)).toBe(
          erc20.encodeFunctionData('transfer', [spelling, amount]),
        );
      }
    }
  });

  it('refuses what is no address and amounts outside uint256', () => {
    const recipient = Wallet.createRandom().address;
    expect(() => encodeErc20Transfer(recipient.slice(0, 40), 1n)).toThrow(/not an address/);
    expect(() => encodeErc20Transfer(`${recipient}00`, 1n)).toThrow(/not an address/);
    expect(() => encodeErc20Transfer('0xZZ' + recipient.slice(4), 1n)).toThrow(/not an address/);
    expect(() => encodeErc20Transfer(recipient, -1n)).toThrow(RangeError);
    expect(() => encodeErc20Transfer(recipient, 1n << 256n)).toThrow(RangeError);
  });
});
