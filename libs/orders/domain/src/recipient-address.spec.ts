import { checkRecipientAddress } from './recipient-address';

const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('checkRecipientAddress', () => {
  it('accepts a checksummed address and stores it as it is', () => {
    expect(checkRecipientAddress(CHECKSUMMED)).toEqual({ ok: true, address: CHECKSUMMED });
  });

  it('accepts addresses without a checksum and checksums them', () => {
    expect(checkRecipientAddress(CHECKSUMMED.toLowerCase())).toEqual({ ok: true, address: CHECKSUMMED });
    expect(checkRecipientAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toEqual({
      ok: true,
      address: CHECKSUMMED,
    });
  });

  it('refuses a mixed-case address with a wrong checksum', () => {
    const typo = CHECKSUMMED.replace('E0F', 'e0F');
    expect(checkRecipientAddress(typo)).toEqual({
      ok: false,
      message: 'recepientAddress has an invalid EIP-55 checksum',
    });
  });

  it.each([
    undefined,
    null,
    42,
    '',
    '52908400098527886E0F7030069857D2E4169EE7',
    '0x1234',
    `${CHECKSUMMED}00`,
    '0xZZ08400098527886E0F7030069857D2E4169EE7',
  ])('refuses %p', (value) => expect(checkRecipientAddress(value).ok).toBe(false));

  it('refuses the zero address, where tokens would be lost', () => {
    expect(checkRecipientAddress(`0x${'0'.repeat(40)}`)).toEqual({
      ok: false,
      message: 'recepientAddress must not be the zero address',
    });
  });
});
