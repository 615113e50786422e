import { forwardedHeaders } from './forwarded-headers';

const client = {
  remoteAddress: '203.0.113.7',
  encrypted: false,
  host: 'api.example.com',
  requestId: 'rid-1',
};

describe('forwardedHeaders', () => {
  it('replaces client-supplied X-Forwarded-* when no ingress is trusted', () => {
    const out = forwardedHeaders(
      {
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil',
        forwarded: 'for=6.6.6.6',
      },
      client,
      false,
    );
    expect(out).toMatchObject({
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'api.example.com',
      'x-request-id': 'rid-1',
    });
    expect(out.forwarded).toBeUndefined();
  });

  it('appends to the chain of a trusted ingress', () => {
    const out = forwardedHeaders(
      {
        'x-forwarded-for': '198.51.100.1',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'api.onramp.io',
      },
      client,
      true,
    );
    expect(out).toMatchObject({
      'x-forwarded-for': '198.51.100.1, 203.0.113.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.onramp.io',
    });
  });

  it('keeps everything else, including Authorization, and drops Transfer-Encoding', () => {
    const out = forwardedHeaders(
      { authorization: 'Bearer t', 'transfer-encoding': 'chunked', 'content-type': 'application/json' },
      client,
      false,
    );
    expect(out.authorization).toBe('Bearer t');
    expect(out['content-type']).toBe('application/json');
    expect(out['transfer-encoding']).toBeUndefined();
  });
});
