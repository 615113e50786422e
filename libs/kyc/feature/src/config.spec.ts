import { DEV_KYC_ENCRYPTION_KEY, loadKycConfig } from './config';

const base = { DATABASE_URL: 'postgres://localhost/x' };
const realKey = 'a'.repeat(64);

describe('loadKycConfig', () => {
  it('uses the development key in sandbox mode when none is given', () => {
    const config = loadKycConfig({ ...base });
    expect(config.encryptionKey).toBe(DEV_KYC_ENCRYPTION_KEY);
    expect(config.port).toBe(3011);
  });

  it('requires a real key in production mode', () => {
    expect(() => loadKycConfig({ ...base, ONRAMP_MODE: 'production' })).toThrow(
      'KYC_ENCRYPTION_KEY is required',
    );
    expect(() =>
      loadKycConfig({ ...base, ONRAMP_MODE: 'production', KYC_ENCRYPTION_KEY: DEV_KYC_ENCRYPTION_KEY }),
    ).toThrow('must not be a public development key');
    expect(() => loadKycConfig({ ...base, ONRAMP_MODE: 'production', KYC_ENCRYPTION_KEY: realKey })).toThrow(
      'PAYER_DATA_ENCRYPTION_KEY is required',
    );
    const payerKey = 'b'.repeat(64);
    const config = loadKycConfig({
      ...base,
      ONRAMP_MODE: 'production',
      KYC_ENCRYPTION_KEY: realKey,
      PAYER_DATA_ENCRYPTION_KEY: payerKey,
    });
    expect(config.encryptionKey).toBe(realKey);
    expect(config.payerDataKeys).toEqual([payerKey]);
  });

  it('reads the previous keys of the ring and names a bad one', () => {
    const old = 'ab'.repeat(32);
    expect(
      loadKycConfig({ ...base, KYC_PREVIOUS_ENCRYPTION_KEYS: ` ${old} ,` }).previousEncryptionKeys,
    ).toEqual([old]);
    expect(() => loadKycConfig({ ...base, KYC_PREVIOUS_ENCRYPTION_KEYS: `${old},short` })).toThrow(
      'KYC_PREVIOUS_ENCRYPTION_KEYS entry 2 must be 32 bytes',
    );
  });

  it('refuses a key of the wrong size', () => {
    expect(() => loadKycConfig({ ...base, KYC_ENCRYPTION_KEY: 'short' })).toThrow(
      'KYC_ENCRYPTION_KEY must be 32 bytes',
    );
  });
});
