import { createHmac } from 'node:crypto';

import { verifyStandardWebhook } from './verify-standard-webhook';

// The reference vector of the Standard Webhooks specification.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const at = (seconds: number) => () => new Date(seconds * 1000);
const headers = (overrides: Record<string, string | undefined> = {}) => ({
  'webhook-id': ID,
  'webhook-timestamp': String(TIMESTAMP),
  'webhook-signature': SIGNATURE,
  ...overrides,
});
const now = { clock: at(TIMESTAMP) };

describe('verifyStandardWebhook', () => {
  it('accepts the reference vector within the tolerance, from Node headers or fetch Headers', () => {
    expect(verifyStandardWebhook(BODY, headers(), SECRET, { clock: at(TIMESTAMP + 299) })).toBe(true);
    expect(verifyStandardWebhook(Buffer.from(BODY), new Headers(headers()), SECRET, now)).toBe(true);
  });

  it('accepts any of several signatures (secret rotation)', () => {
    const other = `v1,${createHmac('sha256', 'x').update('y').digest('base64')}`;
    const both = headers({ 'webhook-signature': `${other} ${SIGNATURE}` });
    expect(verifyStandardWebhook(BODY, both, SECRET, now)).toBe(true);
  });

  it('rejects replays outside the tolerance, in either direction', () => {
    expect(verifyStandardWebhook(BODY, headers(), SECRET, { clock: at(TIMESTAMP + 301) })).toBe(false);
    expect(verifyStandardWebhook(BODY, headers(), SECRET, { clock: at(TIMESTAMP - 301) })).toBe(false);
    const strict = { clock: at(TIMESTAMP + 20), toleranceSeconds: 10 };
    expect(verifyStandardWebhook(BODY, headers(), SECRET, strict)).toBe(false);
  });

  it('rejects a tampered body, id or timestamp, an unknown version, absent headers and a bad secret', () => {
    const verify = (h: Record<string, string | undefined>, body = BODY, secret = SECRET) =>
      verifyStandardWebhook(body, h, secret, now);
    expect(verify(headers(), `${BODY} `)).toBe(false);
    expect(verify(headers({ 'webhook-id': 'msg_other' }))).toBe(false);
    expect(verify(headers({ 'webhook-timestamp': String(TIMESTAMP + 1) }))).toBe(false);
    expect(verify(headers({ 'webhook-signature': SIGNATURE.replace('v1,', 'v2,') }))).toBe(false);
    expect(verify(headers({ 'webhook-signature': undefined }))).toBe(false);
    expect(verify(headers({ 'webhook-timestamp': 'soon' }))).toBe(false);
    expect(verify(headers(), BODY, 'not-a-whsec-secret')).toBe(false);
  });

  it('returns false, never throws, for a missing or malformed secret, headers or body', () => {
    const untyped = verifyStandardWebhook as (
      body: unknown,
      h: unknown,
      secret: unknown,
      o: unknown,
    ) => boolean;
    for (const secret of [undefined, null, 42, {}]) expect(untyped(BODY, headers(), secret, now)).toBe(false);
    for (const h of [undefined, null, 'x']) expect(untyped(BODY, h, SECRET, now)).toBe(false);
    for (const body of [undefined, null, JSON.parse(BODY)])
      expect(untyped(body, headers(), SECRET, now)).toBe(false);
  });
});
