import { loadOrdersConfig } from './config';

const base = { DATABASE_URL: 'postgres://localhost/x' };

describe('loadOrdersConfig', () => {
  it('has working defaults', () => {
    expect(loadOrdersConfig(base)).toMatchObject({
      port: 3012,
      amountBounds: { min: '1', max: '100000' },
      collectionIban: 'DE89370400440532013000',
      collectionBic: 'COBADEFFXXX',
      kycServiceUrl: 'http://127.0.0.1:3011',
      consumerName: 'orders',
    });
  });

  it('refuses bounds that make no sense, naming the variable', () => {
    expect(() => loadOrdersConfig({ ...base, ORDER_MIN_AMOUNT: '0' })).toThrow(
      'ORDER_MIN_AMOUNT must be greater than 0',
    );
    expect(() => loadOrdersConfig({ ...base, ORDER_MIN_AMOUNT: '10', ORDER_MAX_AMOUNT: '5' })).toThrow(
      'must not exceed ORDER_MAX_AMOUNT',
    );
    expect(() => loadOrdersConfig({ ...base, ORDER_MAX_AMOUNT: '1e6' })).toThrow(
      'ORDER_MAX_AMOUNT must be a decimal number',
    );
  });

  it('refuses malformed collection account details', () => {
    expect(() => loadOrdersConfig({ ...base, COLLECTION_IBAN: 'DE89 3704 0044 0532 0130 00' })).toThrow(
      'COLLECTION_IBAN',
    );
    expect(() => loadOrdersConfig({ ...base, COLLECTION_BIC: 'COBA' })).toThrow('COLLECTION_BIC');
  });

  it('shows payers every collection account: COLLECTION_IBAN first, then COLLECTION_ACCOUNTS', () => {
    const config = loadOrdersConfig({
      ...base,
      COLLECTION_IBAN: 'NL91ABNA0417164300',
      COLLECTION_BIC: 'ABNANL2A',
      COLLECTION_ACCOUNT_NAME: 'Onramp B.V.',
      COLLECTION_ACCOUNTS:
        'FR7630006000011234567890189 AGRIFRPP Onramp SAS; DE44500105175407324931 INGDDEFFXXX Onramp GmbH',
    });
    expect(config.collectionAccounts).toEqual([
      { iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', name: 'Onramp B.V.' },
      { iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP', name: 'Onramp SAS' },
      { iban: 'DE44500105175407324931', bic: 'INGDDEFFXXX', name: 'Onramp GmbH' },
    ]);
    expect(loadOrdersConfig(base).collectionAccounts).toEqual([
      { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', name: 'Onramp Sandbox Collections' },
    ]);
    expect(() =>
      loadOrdersConfig({ ...base, COLLECTION_ACCOUNTS: 'FR7630006000011234567890189 - Onramp SAS' }),
    ).toThrow('COLLECTION_ACCOUNTS entry FR7630006000011234567890189 needs a BIC');
    expect(() => loadOrdersConfig({ ...base, COLLECTION_ACCOUNTS: 'FR76 3000 AGRIFRPP Onramp' })).toThrow(
      'is not "IBAN BIC Holder name"',
    );
    expect(() =>
      loadOrdersConfig({ ...base, COLLECTION_ACCOUNTS: 'DE89370400440532013000 COBADEFFXXX Again' }),
    ).toThrow('COLLECTION_ACCOUNTS lists DE89370400440532013000 twice');
  });

  it('drops a trailing slash from the KYC service URL', () => {
    expect(loadOrdersConfig({ ...base, KYC_SERVICE_URL: 'http://kyc:3011/' }).kycServiceUrl).toBe(
      'http://kyc:3011',
    );
  });

  describe('production mode', () => {
    const production = {
      ...base,
      ONRAMP_MODE: 'production',
      COLLECTION_IBAN: 'NL91ABNA0417164300',
      COLLECTION_BIC: 'ABNANL2A',
    };

    it('starts with a real collection account', () => {
      expect(loadOrdersConfig(production)).toMatchObject({ collectionIban: 'NL91ABNA0417164300' });
    });

    it('refuses the collection account left unset or at its test value', () => {
      expect(() => loadOrdersConfig({ ...production, COLLECTION_IBAN: '' })).toThrow(
        'COLLECTION_IBAN is required in production mode',
      );
      expect(() => loadOrdersConfig({ ...production, COLLECTION_IBAN: 'DE89370400440532013000' })).toThrow(
        'COLLECTION_IBAN is the public test IBAN DE89370400440532013000',
      );
      expect(() => loadOrdersConfig({ ...production, COLLECTION_BIC: '' })).toThrow(
        'COLLECTION_BIC is required in production mode',
      );
    });
  });
});
