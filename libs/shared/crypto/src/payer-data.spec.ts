import { DEVELOPMENT_KEYS } from './development-keys';
import { FieldCipher } from './field-cipher';
import { blindIndexes, isSealed, openPayerName, sealPayerName } from './payer-data';

const order = '0190a1b2-0000-7000-8000-000000000001';
const other = '0190a1b2-0000-7000-8000-000000000002';

describe('payer data', () => {
  const cipher = new FieldCipher(DEVELOPMENT_KEYS.payerDataEncryption);

  it('seals a name bound to its order and opens it there only', () => {
    const sealed = sealPayerName(cipher, order, 'Ada Lovelace');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('Ada Lovelace'); // whole: 'Ada' alone turns up in random base64url
    expect(openPayerName(cipher, order.toUpperCase(), sealed)).toBe('Ada Lovelace');
    expect(() => openPayerName(cipher, other, sealed)).toThrow();
  });

  it('takes a plain name (an event from before sealing) as it is', () => {
    expect(isSealed('Ada Lovelace')).toBe(false);
    expect(isSealed('v1.Ada Lovelace')).toBe(false);
    expect(openPayerName(cipher, order, 'Ada Lovelace')).toBe('Ada Lovelace');
  });

  it('indexes a value under every key of the ring, differently per purpose', () => {
    const ring = ['11'.repeat(32), '22'.repeat(32)];
    const [newest, older] = blindIndexes(ring, 'payer-iban', 'DE02120300000000202051');
    expect(newest).not.toEqual(older);
    expect(blindIndexes([ring[1]], 'payer-iban', 'DE02120300000000202051')).toEqual([older]);
    expect(blindIndexes(ring, 'other', 'DE02120300000000202051')[0]).not.toEqual(newest);
    expect(newest).not.toContain('DE02');
  });
});
