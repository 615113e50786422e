import { IncomingHttpHeaders } from 'node:http';

import { ExecutionContext } from '@nestjs/common';

import { ProblemException } from '@onramp/http';

import { AdminKeyGuard, presentedAdminKey } from './admin-key.guard';
import { loadAdminKeySource } from './admin-key.source';

describe('presentedAdminKey', () => {
  it('reads X-Admin-Key first', () => {
    expect(presentedAdminKey({ 'x-admin-key': 'k1', authorization: 'Bearer k2' })).toBe('k1');
  });

  it('reads a Bearer Authorization header in any case', () => {
    expect(presentedAdminKey({ authorization: 'bearer k2' })).toBe('k2');
  });

  it('ignores other schemes and missing headers', () => {
    expect(presentedAdminKey({ authorization: 'Basic azI=' })).toBeUndefined();
    expect(presentedAdminKey({})).toBeUndefined();
  });
});

describe('AdminKeyGuard', () => {
  const contextWith = (headers: IncomingHttpHeaders) =>
    ({ switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as unknown as ExecutionContext;
  const statusOf = (guard: AdminKeyGuard, headers: IncomingHttpHeaders): number => {
    try {
      return guard.canActivate(contextWith(headers)) ? 200 : 0;
    } catch (err) {
      return err instanceof ProblemException ? err.getStatus() : -1;
    }
  };

  it('lets the right key through either header and refuses anything else with 401', () => {
    const guard = new AdminKeyGuard({ adminApiKey: 'the-key' });
    expect(statusOf(guard, { authorization: 'Bearer the-key' })).toBe(200);
    expect(statusOf(guard, { 'x-admin-key': 'the-key' })).toBe(200);
    expect(statusOf(guard, { 'x-admin-key': 'the-kez' })).toBe(401);
    expect(statusOf(guard, {})).toBe(401);
  });

  it('answers 503 when no key is configured, whatever is presented', () => {
    expect(statusOf(new AdminKeyGuard({}), { 'x-admin-key': '' })).toBe(503);
    expect(statusOf(new AdminKeyGuard({ adminApiKey: undefined }), { 'x-admin-key': 'x' })).toBe(503);
  });
});

describe('loadAdminKeySource', () => {
  it('treats an empty key as unset and refuses a short key in production', () => {
    expect(loadAdminKeySource({ ADMIN_API_KEY: '' })).toEqual({ adminApiKey: undefined });
    expect(loadAdminKeySource({ ADMIN_API_KEY: 'short' })).toEqual({ adminApiKey: 'short' });
    expect(() => loadAdminKeySource({ ONRAMP_MODE: 'production', ADMIN_API_KEY: 'short' })).toThrow(
      /ADMIN_API_KEY must be at least 24/,
    );
  });
});
