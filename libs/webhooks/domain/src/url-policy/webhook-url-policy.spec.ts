import { checkWebhookUrl, connectAddressViolation } from './webhook-url-policy';

const prod = { sandbox: false };
const sandbox = { sandbox: true };
const reasonOf = (url: string, opts = prod) => {
  const r = checkWebhookUrl(url, opts);
  return r.ok ? null : r.reason;
};

describe('checkWebhookUrl outside sandbox', () => {
  it('accepts public https URLs and normalises them', () => {
    expect(checkWebhookUrl('https://hooks.example.com/onramp?x=1', prod)).toEqual({
      ok: true,
      url: 'https://hooks.example.com/onramp?x=1',
    });
    expect(checkWebhookUrl('https://Hooks.Example.com:8443', prod)).toEqual({
      ok: true,
      url: 'https://hooks.example.com:8443/',
    });
    expect(checkWebhookUrl('https://8.8.8.8/hook', prod).ok).toBe(true);
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]/hook', prod).ok).toBe(true);
  });

  it('demands https', () => {
    expect(reasonOf('http://hooks.example.com/')).toBe('url must use https');
    expect(reasonOf('http://127.0.0.1:8080/')).toBe('url must use https');
    expect(reasonOf('ftp://hooks.example.com/')).toBe('url must use https');
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://[::1]/', 'loopback'],
    ['https://localhost/', 'localhost'],
    ['https://api.localhost/', 'localhost'],
    ['https://localhost./', 'localhost'],
    ['https://10.0.0.5/', 'private'],
    ['https://172.20.1.1/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://100.64.1.1/', 'carrier-grade NAT'],
    ['https://[fc00::1]/', 'unique local'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped'],
    ['https://[::ffff:169.254.169.254]/', 'IPv4-mapped'],
    // Numeric spellings the URL parser turns into 127.0.0.1 / 169.254.169.254.
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://0251.0376.0251.0376/', 'link-local'],
  ])('refuses %s (%s)', (url, reason) => {
    expect(reasonOf(url)).toContain(reason);
  });

  it('refuses credentials, single-label hosts, junk and over-long URLs', () => {
    expect(reasonOf('https://user:pass@hooks.example.com/')).toBe('url must not contain credentials');
    expect(reasonOf('https://user@hooks.example.com/')).toBe('url must not contain credentials');
    expect(reasonOf('https://intranet/hook')).toContain('fully qualified');
    expect(reasonOf('not a url')).toBe('url must be an absolute https URL');
    expect(reasonOf('/relative/path')).toBe('url must be an absolute https URL');
    expect(reasonOf('')).toBe('url is required');
    expect(reasonOf(`https://hooks.example.com/${'a'.repeat(2100)}`)).toContain('at most 2048');
  });
});

describe('checkWebhookUrl in sandbox', () => {
  it('allows plain http to loopback only', () => {
    expect(checkWebhookUrl('http://127.0.0.1:4000/hook', sandbox)).toEqual({
      ok: true,
      url: 'http://127.0.0.1:4000/hook',
    });
    expect(checkWebhookUrl('http://127.8.9.10/hook', sandbox).ok).toBe(true);
    expect(checkWebhookUrl('http://localhost:4000/hook', sandbox).ok).toBe(true);
    expect(checkWebhookUrl('http://[::1]:4000/hook', sandbox).ok).toBe(true);
    expect(reasonOf('http://hooks.example.com/', sandbox)).toContain('https');
    expect(reasonOf('http://10.0.0.1/', sandbox)).toContain('https');
    expect(reasonOf('http://[::ffff:127.0.0.1]/', sandbox)).toContain('https');
  });

  it('allows https anywhere except link-local (metadata)', () => {
    expect(checkWebhookUrl('https://hooks.example.com/', sandbox).ok).toBe(true);
    expect(checkWebhookUrl('https://localhost:8443/', sandbox).ok).toBe(true);
    expect(reasonOf('https://169.254.169.254/', sandbox)).toContain('link-local');
  });

  it('still refuses credentials', () => {
    expect(reasonOf('http://a:b@127.0.0.1/', sandbox)).toBe('url must not contain credentials');
  });
});

describe('connectAddressViolation', () => {
  it('outside sandbox refuses every non-public address', () => {
    const opts = { sandbox: false, protocol: 'https:' as const };
    expect(connectAddressViolation('93.184.215.14', opts)).toBeNull();
    expect(connectAddressViolation('127.0.0.1', opts)).toContain('loopback');
    expect(connectAddressViolation('10.0.0.1', opts)).toContain('private');
    expect(connectAddressViolation('169.254.169.254', opts)).toContain('link-local');
    expect(connectAddressViolation('::ffff:10.0.0.1', opts)).toContain('IPv4-mapped');
  });

  it('in sandbox lets http reach loopback only and never link-local', () => {
    expect(connectAddressViolation('127.0.0.1', { sandbox: true, protocol: 'http:' })).toBeNull();
    expect(connectAddressViolation('::1', { sandbox: true, protocol: 'http:' })).toBeNull();
    expect(connectAddressViolation('10.0.0.1', { sandbox: true, protocol: 'http:' })).toContain('loopback');
    expect(connectAddressViolation('10.0.0.1', { sandbox: true, protocol: 'https:' })).toBeNull();
    expect(connectAddressViolation('169.254.169.254', { sandbox: true, protocol: 'https:' })).toContain(
      'link-local',
    );
  });
});

describe("the operator's WEBHOOK_ALLOWED_ADDRESSES in production", () => {
  const opts = { sandbox: false, allowedAddresses: ['127.0.0.1', '10.0.0.7'] };

  it('lets exactly the listed addresses through, https only, at registration and at connect time', () => {
    expect(checkWebhookUrl('https://127.0.0.1:8443/hooks', opts)).toEqual({
      ok: true,
      url: 'https://127.0.0.1:8443/hooks',
    });
    expect(checkWebhookUrl('http://127.0.0.1:8443/hooks', opts)).toEqual({
      ok: false,
      reason: 'url must use https',
    });
    expect(checkWebhookUrl('https://127.0.0.2/hooks', opts).ok).toBe(false);
    expect(checkWebhookUrl('https://localhost/hooks', opts).ok).toBe(false);
    expect(checkWebhookUrl('https://[::ffff:127.0.0.1]/hooks', opts).ok).toBe(false);
    expect(connectAddressViolation('10.0.0.7', { ...opts, protocol: 'https:' })).toBeNull();
    expect(connectAddressViolation('10.0.0.8', { ...opts, protocol: 'https:' })).toBe('private address');
    expect(connectAddressViolation('169.254.169.254', { ...opts, protocol: 'https:' })).not.toBeNull();
  });

  it('changes nothing when unset', () => {
    expect(checkWebhookUrl('https://127.0.0.1/hooks', { sandbox: false }).ok).toBe(false);
    expect(connectAddressViolation('127.0.0.1', { sandbox: false, protocol: 'https:' })).not.toBeNull();
  });
});
