import { DEVELOPMENT_KEYS } from './development-keys';
import { keyRingFrom } from './key-ring';

const base = {
  name: 'PAYER_DATA_ENCRYPTION_KEY',
  previousName: 'PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS',
  current: undefined,
  previous: undefined,
  production: false,
  developmentKey: DEVELOPMENT_KEYS.payerDataEncryption,
};
const real = '11'.repeat(32);
const old = '22'.repeat(32);

describe('keyRingFrom', () => {
  it('seals with the development key in sandbox when unset', () => {
    expect(keyRingFrom(base)).toEqual([DEVELOPMENT_KEYS.payerDataEncryption]);
  });

  it('puts the sealing key first and the older keys after it', () => {
    expect(keyRingFrom({ ...base, current: real, previous: ` ${old} ,` })).toEqual([real, old]);
  });

  it('needs a key in production and refuses every development key there', () => {
    expect(() => keyRingFrom({ ...base, production: true })).toThrow('PAYER_DATA_ENCRYPTION_KEY is required');
    expect(() => keyRingFrom({ ...base, production: true, current: DEVELOPMENT_KEYS.kycEncryption })).toThrow(
      'PAYER_DATA_ENCRYPTION_KEY must not be a public development key',
    );
    expect(() =>
      keyRingFrom({
        ...base,
        production: true,
        current: real,
        previous: DEVELOPMENT_KEYS.payerDataEncryption,
      }),
    ).toThrow('PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS entry 1 must not be a public development key');
    expect(keyRingFrom({ ...base, production: true, current: real })).toEqual([real]);
  });

  it('names the malformed key', () => {
    expect(() => keyRingFrom({ ...base, current: 'short' })).toThrow(
      'PAYER_DATA_ENCRYPTION_KEY must be 32 bytes',
    );
    expect(() => keyRingFrom({ ...base, current: real, previous: `${old},short` })).toThrow(
      'PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS entry 2 must be 32 bytes',
    );
  });
});
