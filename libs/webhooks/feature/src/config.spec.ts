import { ConfigError } from '@onramp/config';

import { DEV_SECRET_ENCRYPTION_KEY, loadWebhookConfig } from './config';

const base = { DATABASE_URL: 'postgres://x/y' };
const KEY = 'a'.repeat(64);
const PAYER_KEY = 'b'.repeat(64);

describe('loadWebhookConfig', () => {
  it('has the documented defaults and the dev key in sandbox', () => {
    const c = loadWebhookConfig(base);
    expect(c.sandbox).toBe(true);
    expect(c.env.WEBHOOK_DISPATCH_PORT).toBe(3015);
    expect(c.pollMs).toBe(250);
    expect(c.timeoutMs).toBe(10_000);
    expect(c.retryPolicy).toMatchObject({
      baseDelayMs: 1000,
      maxDelayMs: 3_600_000,
      windowMs: 72 * 3_600_000,
    });
    expect(c.secretEncryptionKey).toBe(DEV_SECRET_ENCRYPTION_KEY);
    expect(c.leaseMs).toBeGreaterThan(c.timeoutMs);
  });

  it('demands a real encryption key in production', () => {
    expect(() => loadWebhookConfig({ ...base, ONRAMP_MODE: 'production' })).toThrow(
      /WEBHOOK_SECRET_ENCRYPTION_KEY/,
    );
    expect(() =>
      loadWebhookConfig({
        ...base,
        ONRAMP_MODE: 'production',
        WEBHOOK_SECRET_ENCRYPTION_KEY: DEV_SECRET_ENCRYPTION_KEY,
      }),
    ).toThrow(ConfigError);
    expect(() =>
      loadWebhookConfig({ ...base, ONRAMP_MODE: 'production', WEBHOOK_SECRET_ENCRYPTION_KEY: KEY }),
    ).toThrow(/PAYER_DATA_ENCRYPTION_KEY is required/);
    const c = loadWebhookConfig({
      ...base,
      ONRAMP_MODE: 'production',
      WEBHOOK_SECRET_ENCRYPTION_KEY: KEY,
      PAYER_DATA_ENCRYPTION_KEY: PAYER_KEY,
      PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS: KEY,
    });
    expect(c.sandbox).toBe(false);
    expect(c.secretEncryptionKey).toBe(KEY);
    expect(c.payerDataKeys).toEqual([PAYER_KEY, KEY]);
    expect(c.secretEncryptionKeys).toEqual([KEY]);
  });

  it('keeps the 72 h retry window in production and names bad variables', () => {
    const prod = {
      ...base,
      ONRAMP_MODE: 'production',
      WEBHOOK_SECRET_ENCRYPTION_KEY: KEY,
      PAYER_DATA_ENCRYPTION_KEY: PAYER_KEY,
    };
    expect(() => loadWebhookConfig({ ...prod, WEBHOOK_RETRY_WINDOW_HOURS: '24' })).toThrow(
      /WEBHOOK_RETRY_WINDOW_HOURS/,
    );
    expect(loadWebhookConfig({ ...base, WEBHOOK_RETRY_WINDOW_HOURS: '1' }).retryPolicy.windowMs).toBe(
      3_600_000,
    );
    expect(() => loadWebhookConfig({ ...base, WEBHOOK_TIMEOUT_MS: 'soon' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(() =>
      loadWebhookConfig({ ...base, WEBHOOK_RETRY_BASE_MS: '5000', WEBHOOK_RETRY_MAX_MS: '1000' }),
    ).toThrow(/WEBHOOK_RETRY_MAX_MS/);
  });

  it('reads the operator allow-list of addresses, IP addresses only', () => {
    expect(loadWebhookConfig(base).allowedAddresses).toEqual([]);
    expect(
      loadWebhookConfig({ ...base, WEBHOOK_ALLOWED_ADDRESSES: ' 127.0.0.1, fd00::7 ' }).allowedAddresses,
    ).toEqual(['127.0.0.1', 'fd00::7']);
    expect(() =>
      loadWebhookConfig({ ...base, WEBHOOK_ALLOWED_ADDRESSES: '10.0.0.0/8,hooks.internal' }),
    ).toThrow('WEBHOOK_ALLOWED_ADDRESSES must list IP addresses, not 10.0.0.0/8, hooks.internal');
  });

  it('reads the webhook-secret ring and refuses a development key in it in production', () => {
    const old = 'c'.repeat(64);
    const prod = {
      ...base,
      ONRAMP_MODE: 'production',
      WEBHOOK_SECRET_ENCRYPTION_KEY: KEY,
      PAYER_DATA_ENCRYPTION_KEY: PAYER_KEY,
    };
    expect(
      loadWebhookConfig({ ...prod, WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS: ` ${old} ,` })
        .secretEncryptionKeys,
    ).toEqual([KEY, old]);
    expect(() =>
      loadWebhookConfig({ ...prod, WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS: DEV_SECRET_ENCRYPTION_KEY }),
    ).toThrow('WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS entry 1 must not be a public development key');
    expect(() => loadWebhookConfig({ ...base, WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS: 'short' })).toThrow(
      'WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS entry 1 must be 32 bytes',
    );
  });
});
