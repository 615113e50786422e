import { Interface, Wallet } from 'ethers';

import { ERC20_ABI, TEST_USDC_ABI } from './erc20';
import {
  BALANCE_OF_SELECTOR,
  decodeBool,
  decodeUint256,
  encodeAddressCall,
  encodeErc20Transfer,
  IS_BLACKLISTED_SELECTOR,
} from './erc20-calldata';

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

describe('view calls taking one address', () => {
  const token = new Interface(TEST_USDC_ABI);

  it('writes what ethers writes for balanceOf and isBlacklisted', () => {
    for (let i = 0; i < 20; i++) {
      const account = Wallet.createRandom().address;
      for (const spelling of [account, account.toLowerCase()]) {
        expect(encodeAddressCall(BALANCE_OF_SELECTOR, spelling)).toBe(
          token.encodeFunctionData('balanceOf', [spelling]),
        );
        expect(encodeAddressCall(IS_BLACKLISTED_SELECTOR, spelling)).toBe(
          token.encodeFunctionData('isBlacklisted', [spelling]),
        );
      }
    }
    expect(() => encodeAddressCall(BALANCE_OF_SELECTOR, '0x1234')).toThrow(/not an address/);
  });

  it('reads the answers as ethers decodes them', () => {
    for (const value of [0n, 1n, 106_920_000n, (1n << 256n) - 1n]) {
      const data = token.encodeFunctionResult('balanceOf', [value]);
      expect(decodeUint256(data)).toBe(token.decodeFunctionResult('balanceOf', data)[0]);
    }
    for (const listed of [true, false]) {
      const data = token.encodeFunctionResult('isBlacklisted', [listed]);
      expect(decodeBool(data)).toBe(listed);
    }
  });

  it('refuses an answer that is not one word (no contract at the address) and a bool above 1', () => {
    expect(() => decodeUint256('0x')).toThrow(/could not decode the uint256 answer/);
    expect(() => decodeUint256(null)).toThrow(/could not decode/);
    expect(() => decodeUint256('0x' + '00'.repeat(64))).toThrow(/could not decode/);
    expect(() => decodeBool('0x')).toThrow(/could not decode the bool answer/);
    expect(() => decodeBool('0x' + '0'.repeat(63) + '2')).toThrow(/could not decode the bool answer/);
  });
});
