import { DEVELOPMENT_KEYS } from '@onramp/crypto';

import {
  loadServiceCallers,
  parseServiceCallers,
  signServiceRequest,
  verifyServiceRequest,
} from './service-credential';

describe('service credentials', () => {
  const callers = { orders: 's3cret-orders' };
  const path = '/internal/kyc-users/u?merchantId=m';
  const t0 = 1_800_000_000_000;

  it('accepts a fresh credential for the same method and path, from a known caller', () => {
    const credential = signServiceRequest('orders', 's3cret-orders', 'GET', path, t0);
    expect(verifyServiceRequest(credential, callers, 'GET', path, t0 + 30_000)).toBe('orders');
  });

  it('refuses none, a stale one, another path or method, a wrong secret or an unknown caller', () => {
    const credential = signServiceRequest('orders', 's3cret-orders', 'GET', path, t0);
    expect(verifyServiceRequest(undefined, callers, 'GET', path, t0)).toBeUndefined();
    expect(verifyServiceRequest(credential, callers, 'GET', path, t0 + 61_000)).toBeUndefined();
    expect(verifyServiceRequest(credential, callers, 'GET', `${path}x`, t0)).toBeUndefined();
    expect(verifyServiceRequest(credential, callers, 'POST', path, t0)).toBeUndefined();
    const wrong = signServiceRequest('orders', 'guess', 'GET', path, t0);
    expect(verifyServiceRequest(wrong, callers, 'GET', path, t0)).toBeUndefined();
    const stranger = signServiceRequest('kyc', 's3cret-orders', 'GET', path, t0);
    expect(verifyServiceRequest(stranger, callers, 'GET', path, t0)).toBeUndefined();
    const proto = signServiceRequest('constructor', 'x', 'GET', path, t0);
    expect(verifyServiceRequest(proto, callers, 'GET', path, t0)).toBeUndefined();
  });

  it('reads SERVICE_CALLERS; sandbox defaults to the development secret, production to nobody', () => {
    expect(parseServiceCallers('orders=a, settlement=b=c')).toEqual({ orders: 'a', settlement: 'b=c' });
    expect(() => parseServiceCallers('orders')).toThrow();
    expect(loadServiceCallers({})).toEqual({
      orders: DEVELOPMENT_KEYS.serviceSecret,
      gateway: DEVELOPMENT_KEYS.serviceSecret,
    });
    expect(loadServiceCallers({ ONRAMP_MODE: 'production' })).toEqual({});
    expect(() =>
      loadServiceCallers({
        ONRAMP_MODE: 'production',
        SERVICE_CALLERS: `orders=${DEVELOPMENT_KEYS.serviceSecret}`,
      }),
    ).toThrow(/development key/);
  });
});
