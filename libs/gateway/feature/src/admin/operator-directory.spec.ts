import { createHash } from 'node:crypto';

import { loadGatewayConfig } from '../config';
import { OperatorDirectory, parseOperatorKeys } from './operator-directory';

const sha = (key: string) => createHash('sha256').update(key).digest('hex');

describe('OPERATOR_KEYS', () => {
  const entries = `alice:read+money:${sha('alice-key')}, bob:deliveries:${sha('bob-key')}`;

  it('authenticates each named operator by its key, with its scopes only', () => {
    const directory = new OperatorDirectory(parseOperatorKeys(entries), undefined);
    expect(directory.authenticate('alice-key')).toEqual({ id: 'alice', scopes: ['read', 'money'] });
    expect(directory.authenticate('bob-key')).toEqual({ id: 'bob', scopes: ['deliveries'] });
    expect(directory.authenticate(sha('alice-key'))).toBeUndefined(); // the hash is not the key
    expect(directory.authenticate(undefined)).toBeUndefined();
  });

  it('refuses malformed entries, unknown scopes, duplicates and the reserved id, naming the problem', () => {
    expect(() => parseOperatorKeys('alice:read')).toThrow(/id:scopes:sha256hex/);
    expect(() => parseOperatorKeys(`alice:root:${sha('x')}`)).toThrow(/unknown scope root/);
    expect(() => parseOperatorKeys(`alice:read:${sha('x')},alice:read:${sha('y')}`)).toThrow(/twice/);
    expect(() => parseOperatorKeys(`admin:read:${sha('x')}`)).toThrow(/not be "admin"/);
    expect(() => parseOperatorKeys('alice:read:abc')).toThrow(/64 hex/);
    expect(() => loadGatewayConfig({ OPERATOR_KEYS: 'alice' })).toThrow(/OPERATOR_KEYS/);
  });

  it('takes the bootstrap admin key as operator admin: always in sandbox, in production until operators exist', () => {
    const key = 'a-bootstrap-admin-key-of-24+chars';
    const sandbox = loadGatewayConfig({ ADMIN_API_KEY: key, OPERATOR_KEYS: entries }).admin.operators;
    expect(sandbox.authenticate(key)).toMatchObject({ id: 'admin' });
    const prod = { ONRAMP_MODE: 'production', ADMIN_API_KEY: key, SERVICE_SECRET: 'a-service-secret' };
    expect(loadGatewayConfig(prod).admin.operators.authenticate(key)).toMatchObject({ id: 'admin' });
    const named = loadGatewayConfig({ ...prod, OPERATOR_KEYS: entries }).admin.operators;
    expect(named.authenticate(key)).toBeUndefined();
    expect(named.authenticate('alice-key')).toMatchObject({ id: 'alice' });
    expect(loadGatewayConfig({ ONRAMP_MODE: 'production' }).admin.serviceSecret).toBeUndefined();
    expect(() => loadGatewayConfig({ ONRAMP_MODE: 'production', ADMIN_API_KEY: 'short' })).toThrow(
      /at least 24/,
    );
  });
});
