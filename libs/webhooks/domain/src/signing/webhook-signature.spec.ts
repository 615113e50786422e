import { createHmac } from 'node:crypto';

import { webhookHeaders, WEBHOOK_USER_AGENT } from './webhook-headers';
import { generateWebhookSecret, standardSigningKey } from './webhook-secret';
import {
  signBody,
  signingKeysOf,
  standardSignature,
  verifySignature,
  verifyStandardSignature,
} from './webhook-signature';

// Fixed key bytes so expectations are computed independently of the code under test.
const KEY = Buffer.from('000102030405060708090a0b0c0d0e0f1011121314151617', 'hex');
const SECRET = `whsec_${KEY.toString('base64')}`;
const BODY = '{"event":"order.completed","amount":100.5,"name":"Zoë"}';

describe('generateWebhookSecret', () => {
  it('is whsec_ followed by base64 of 24 random bytes', () => {
    const secret = generateWebhookSecret(() => KEY);
    expect(secret).toBe('whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX');
    expect(standardSigningKey(secret)).toEqual(KEY);
  });

  it('uses fresh randomness by default', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('rejects a secret without the prefix as a Standard Webhooks key', () => {
    expect(() => standardSigningKey('not-a-secret')).toThrow('whsec_');
  });
});

describe('signBody / verifySignature (X-Webhook-Signature)', () => {
  it('is the lowercase hex HMAC-SHA256 of the UTF-8 body keyed with the whole secret string', () => {
    const expected = createHmac('sha256', SECRET).update(Buffer.from(BODY, 'utf8')).digest('hex');
    expect(signBody(SECRET, BODY)).toBe(expected);
    expect(signBody(SECRET, Buffer.from(BODY))).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies the genuine signature, in either letter case', () => {
    const sig = signBody(SECRET, BODY);
    expect(verifySignature(SECRET, BODY, sig)).toBe(true);
    expect(verifySignature(SECRET, BODY, sig.toUpperCase())).toBe(true);
  });

  it('rejects a changed body, another secret, or a malformed signature', () => {
    const sig = signBody(SECRET, BODY);
    expect(verifySignature(SECRET, BODY.replace('100.5', '100.6'), sig)).toBe(false);
    expect(verifySignature(generateWebhookSecret(), BODY, sig)).toBe(false);
    expect(verifySignature(SECRET, BODY, sig.slice(0, 63))).toBe(false);
    expect(verifySignature(SECRET, BODY, 'zz' + sig.slice(2))).toBe(false);
    expect(verifySignature(SECRET, BODY, '')).toBe(false);
  });
});

describe('Standard Webhooks signature', () => {
  const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
  const timestamp = 1674087231;

  it('is v1,base64 HMAC of "id.timestamp.body" keyed with the decoded secret', () => {
    const expected = createHmac('sha256', KEY).update(`${id}.${timestamp}.${BODY}`).digest('base64');
    expect(standardSignature({ secret: SECRET, id, timestamp, body: BODY })).toBe(`v1,${expected}`);
  });

  it('matches the Standard Webhooks reference vector', () => {
    // From the standard-webhooks spec test suite.
    const sig = standardSignature({
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  const headersFor = (signature: string, ts = String(timestamp)) => ({ id, timestamp: ts, signature });

  it('verifies within the tolerance and accepts any of several signatures', () => {
    const sig = standardSignature({ secret: SECRET, id, timestamp, body: BODY });
    const input = { secret: SECRET, body: BODY, nowSeconds: timestamp + 10 };
    expect(verifyStandardSignature({ ...input, headers: headersFor(sig) })).toBe(true);
    expect(verifyStandardSignature({ ...input, headers: headersFor(`v1,bm90IGl0 ${sig}`) })).toBe(true);
  });

  it('rejects replays outside the tolerance, tampering and unknown versions', () => {
    const sig = standardSignature({ secret: SECRET, id, timestamp, body: BODY });
    const base = { secret: SECRET, body: BODY, nowSeconds: timestamp };
    expect(verifyStandardSignature({ ...base, nowSeconds: timestamp + 301, headers: headersFor(sig) })).toBe(
      false,
    );
    expect(verifyStandardSignature({ ...base, body: `${BODY} `, headers: headersFor(sig) })).toBe(false);
    expect(
      verifyStandardSignature({
        ...base,
        headers: { id: 'msg_other', timestamp: String(timestamp), signature: sig },
      }),
    ).toBe(false);
    expect(verifyStandardSignature({ ...base, headers: headersFor(sig.replace('v1,', 'v2,')) })).toBe(false);
    expect(verifyStandardSignature({ ...base, headers: headersFor(sig, 'soon') })).toBe(false);
  });
});

describe('webhookHeaders', () => {
  it('carries both signature schemes, the stable event id and the attempt timestamp', () => {
    const h = webhookHeaders({
      keys: signingKeysOf(SECRET),
      eventId: 'evt-1',
      body: BODY,
      timestampSeconds: 1700000000,
    });
    expect(h).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      'X-Webhook-Signature': signBody(SECRET, BODY),
      'X-Webhook-Id': 'evt-1',
      'X-Webhook-Timestamp': '1700000000',
      'webhook-id': 'evt-1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': standardSignature({
        secret: SECRET,
        id: 'evt-1',
        timestamp: 1700000000,
        body: BODY,
      }),
    });
    expect(WEBHOOK_USER_AGENT).toBe('onramp-webhooks/1');
  });

  it('signs with keys derived once as with the secret itself, for any body', () => {
    const keys = signingKeysOf(SECRET);
    expect(keys.standard).toEqual(KEY);
    for (const body of ['', BODY, Buffer.from(BODY), 'x'.repeat(300)]) {
      const h = webhookHeaders({ keys, eventId: 'evt-2', body: body.toString(), timestampSeconds: 1 });
      expect(h['X-Webhook-Signature']).toBe(signBody(SECRET, body));
      expect(h['webhook-signature']).toBe(
        standardSignature({ secret: SECRET, id: 'evt-2', timestamp: 1, body }),
      );
    }
  });

  it('refuses to derive keys from a secret that is not whsec_ base64', () => {
    expect(() => signingKeysOf('not-a-secret')).toThrow('whsec_');
  });
});
