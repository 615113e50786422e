import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { isPublicDevKey } from '@onramp/config';

import { launchMode, productionLaunchProblems } from './mode';
import { loadLocalSecrets } from './secrets';

describe('launchMode', () => {
  it('is sandbox unless production is asked for, by the launch options first', () => {
    expect(launchMode(undefined, {})).toBe('sandbox');
    expect(launchMode(undefined, { ONRAMP_MODE: 'production' })).toBe('production');
    expect(launchMode({ ONRAMP_MODE: 'sandbox' }, { ONRAMP_MODE: 'production' })).toBe('sandbox');
    expect(() => launchMode(undefined, { ONRAMP_MODE: 'prod' })).toThrow(
      'ONRAMP_MODE must be sandbox or production, got "prod"',
    );
  });

  it('names the collection account production needs', () => {
    expect(productionLaunchProblems({})).toEqual([
      expect.stringContaining('COLLECTION_IBAN'),
      expect.stringContaining('COLLECTION_BIC'),
    ]);
    expect(productionLaunchProblems({ COLLECTION_IBAN: 'NL91ABNA0417164300', COLLECTION_BIC: 'ABNANL2A' })).toEqual(
      [],
    );
  });
});

describe('loadLocalSecrets in production mode', () => {
  it('generates a service secret and a hot wallet of its own, kept across restarts and a sandbox run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'onramp-secrets-'));
    const first = loadLocalSecrets(dir, {}, 'production');
    expect(first.SETTLEMENT_SIGNER_KEY).toMatch(/^0x[0-9a-f]{64}$/);
    expect(isPublicDevKey(first.SETTLEMENT_SIGNER_KEY!)).toBe(false);
    expect(first.SERVICE_CALLERS).toBe(`orders=${first.SERVICE_SECRET},gateway=${first.SERVICE_SECRET}`);
    const sandbox = loadLocalSecrets(dir, {}, 'sandbox');
    expect(sandbox.SETTLEMENT_SIGNER_KEY).toBeUndefined(); // sandbox keeps anvil's funded account
    expect(loadLocalSecrets(dir, {}, 'production')).toEqual(first);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toMatchObject({
      SETTLEMENT_SIGNER_KEY: first.SETTLEMENT_SIGNER_KEY,
    });
  });
});
