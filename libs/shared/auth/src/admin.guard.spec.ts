import { ExecutionContext } from '@nestjs/common';

import { DEVELOPMENT_KEYS } from '@onramp/crypto';
import { ProblemException } from '@onramp/http';

import { AdminGuard, gatewayAdminHeaders } from './admin.guard';
import { presentedAdminKey } from './admin-key';
import { formatOperator, Operator, parseOperator } from './operator';
import { loadServiceCallers, signServiceRequest } from './service-credential';

describe('presentedAdminKey', () => {
  it('reads X-Admin-Key first, then a Bearer Authorization header in any case', () => {
    expect(presentedAdminKey({ 'x-admin-key': 'k1', authorization: 'Bearer k2' })).toBe('k1');
    expect(presentedAdminKey({ authorization: 'bearer k2' })).toBe('k2');
    expect(presentedAdminKey({ authorization: 'Basic azI=' })).toBeUndefined();
    expect(presentedAdminKey({})).toBeUndefined();
  });
});

describe('operator header', () => {
  it('round-trips and refuses unknown scopes or odd ids', () => {
    const alice: Operator = { id: 'alice', scopes: ['read', 'money'] };
    expect(parseOperator(formatOperator(alice))).toEqual(alice);
    expect(parseOperator('alice;read,root')).toBeUndefined();
    expect(parseOperator('Alice Smith;read')).toBeUndefined();
    expect(parseOperator('alice')).toBeUndefined();
  });
});

describe('AdminGuard (sandbox: the development service secret)', () => {
  const alice: Operator = { id: 'alice', scopes: ['read'] };
  const run = (method: string, url: string, headers: Record<string, string>) => {
    const req: { method: string; url: string; headers: Record<string, string>; operator?: Operator } = {
      method,
      url,
      headers,
    };
    const context = { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
    try {
      new AdminGuard(loadServiceCallers({})).canActivate(context);
      return { status: 200, operator: req.operator };
    } catch (err) {
      return { status: err instanceof ProblemException ? err.getStatus() : -1 };
    }
  };
  const secret = DEVELOPMENT_KEYS.serviceSecret;

  it("accepts the gateway's credential and exposes the operator it binds", () => {
    const headers = gatewayAdminHeaders(secret, 'POST', '/admin/merchants', alice);
    expect(run('POST', '/admin/merchants', headers)).toEqual({ status: 200, operator: alice });
  });

  it('refuses an admin key, another path, a changed operator or a credential of another service', () => {
    expect(run('GET', '/admin/merchants', { authorization: 'Bearer anything' }).status).toBe(401);
    const headers = gatewayAdminHeaders(secret, 'GET', '/admin/merchants', alice);
    expect(run('GET', '/admin/orders', headers).status).toBe(401);
    expect(run('GET', '/admin/merchants', { ...headers, 'x-operator': 'alice;read,money' }).status).toBe(401);
    const orders = signServiceRequest('orders', secret, 'GET', '/admin/merchants', Date.now(), 'alice;read');
    expect(
      run('GET', '/admin/merchants', { 'x-operator': 'alice;read', 'x-service-credential': orders }).status,
    ).toBe(401);
  });
});
