import { createHash } from 'node:crypto';

import { loadGatewayConfig } from '../config';
import { LiveOperators, parseOperatorList } from './live-operators';
import { OperatorDirectory, OperatorEntry, parseOperatorKeys } from './operator-directory';

const sha = (key: string) => createHash('sha256').update(key).digest('hex');
const entry = (id: string, scopes: OperatorEntry['scopes'], key: string): OperatorEntry => ({
  id,
  scopes,
  keyHash: Buffer.from(sha(key), 'hex'),
});
const fixed = (list: OperatorEntry[] | undefined) => ({ current: () => Promise.resolve(list) });

describe('OPERATOR_KEYS', () => {
  const entries = `alice:read+money:${sha('alice-key')}, bob:deliveries:${sha('bob-key')}`;

  it('authenticates each named operator by its key, with its scopes only', async () => {
    const directory = new OperatorDirectory(parseOperatorKeys(entries), undefined);
    await expect(directory.authenticate('alice-key')).resolves.toEqual({
      id: 'alice',
      scopes: ['read', 'money'],
    });
    await expect(directory.authenticate('bob-key')).resolves.toEqual({ id: 'bob', scopes: ['deliveries'] });
    await expect(directory.authenticate(sha('alice-key'))).resolves.toBeUndefined(); // the hash is not the key
    await expect(directory.authenticate(undefined)).resolves.toBeUndefined();
  });

  it('refuses malformed entries, unknown scopes, duplicates and the reserved id, naming the problem', () => {
    expect(() => parseOperatorKeys('alice:read')).toThrow(/id:scopes:sha256hex/);
    expect(() => parseOperatorKeys(`alice:root:${sha('x')}`)).toThrow(/unknown scope root/);
    expect(() => parseOperatorKeys(`alice:read:${sha('x')},alice:read:${sha('y')}`)).toThrow(/twice/);
    expect(() => parseOperatorKeys(`admin:read:${sha('x')}`)).toThrow(/not be "admin"/);
    expect(() => parseOperatorKeys('alice:read:abc')).toThrow(/64 hex/);
    expect(() => loadGatewayConfig({ OPERATOR_KEYS: 'alice' })).toThrow(/OPERATOR_KEYS/);
  });

  it('takes the bootstrap admin key as operator admin: always in sandbox, in production until operators exist', async () => {
    const key = 'a-bootstrap-admin-key-of-24+chars';
    const sandbox = loadGatewayConfig({ ADMIN_API_KEY: key, OPERATOR_KEYS: entries }).admin.operators;
    await expect(sandbox.authenticate(key)).resolves.toMatchObject({ id: 'admin' });
    const prod = { ONRAMP_MODE: 'production', ADMIN_API_KEY: key, SERVICE_SECRET: 'a-service-secret' };
    const named = loadGatewayConfig({ ...prod, OPERATOR_KEYS: entries }).admin.operators;
    await expect(named.authenticate(key)).resolves.toBeUndefined();
    await expect(named.authenticate('alice-key')).resolves.toMatchObject({ id: 'alice' });
    expect(loadGatewayConfig({ ONRAMP_MODE: 'production' }).admin.serviceSecret).toBeUndefined();
    expect(() => loadGatewayConfig({ ONRAMP_MODE: 'production', ADMIN_API_KEY: 'short' })).toThrow(
      /at least 24/,
    );
  });
});

describe("operators from auth's rows", () => {
  const key = 'a-bootstrap-admin-key-of-24+chars';

  it('authenticates live operators; in production the bootstrap key only creates the first one', async () => {
    const carol = entry('carol', ['read', 'kyc'], 'carol-key');
    const none = new OperatorDirectory([], key, { production: true, live: fixed([]) });
    await expect(none.authenticate(key)).resolves.toEqual({ id: 'admin', scopes: ['read', 'operators'] });
    const some = new OperatorDirectory([], key, { production: true, live: fixed([carol]) });
    await expect(some.authenticate('carol-key')).resolves.toEqual({ id: 'carol', scopes: ['read', 'kyc'] });
    await expect(some.authenticate(key)).resolves.toBeUndefined();
    // sandbox: the bootstrap key keeps every scope, whatever exists
    const sandbox = new OperatorDirectory([], key, { production: false, live: fixed([carol]) });
    await expect(sandbox.authenticate(key)).resolves.toMatchObject({
      id: 'admin',
      scopes: expect.arrayContaining(['money']),
    });
  });

  it('answers unavailable (not a wrong key) when the list is unknown, but configured keys still work', async () => {
    const dir = new OperatorDirectory(parseOperatorKeys(`alice:read:${sha('alice-key')}`), key, {
      production: true,
      live: fixed(undefined),
    });
    await expect(dir.authenticate('carol-key')).resolves.toBe('unavailable');
    await expect(dir.authenticate('alice-key')).resolves.toMatchObject({ id: 'alice' });
  });

  it('never takes an id from auth that OPERATOR_KEYS already names', async () => {
    const dir = new OperatorDirectory(parseOperatorKeys(`alice:read:${sha('alice-key')}`), undefined, {
      production: true,
      live: fixed([entry('alice', ['money'], 'other-key')]),
    });
    await expect(dir.authenticate('other-key')).resolves.toBeUndefined();
  });

  it('refreshes the list every few seconds, keeps the last one through a short outage, refuses a stale one', async () => {
    let now = 0;
    let answer: () => Promise<OperatorEntry[]> = () => Promise.resolve([entry('carol', ['read'], 'k')]);
    let fetches = 0;
    const live = new LiveOperators(
      () => {
        fetches += 1;
        return answer();
      },
      { refreshMs: 5_000, staleMs: 60_000 },
      () => now,
    );
    expect(await Promise.all([live.current(), live.current()])).toHaveLength(2);
    expect(fetches).toBe(1); // concurrent requests share one fetch
    now = 4_999;
    await live.current();
    expect(fetches).toBe(1);
    now = 5_000;
    answer = () => Promise.resolve([]); // carol revoked
    await expect(live.current()).resolves.toEqual([]);
    answer = () => Promise.reject(new Error('auth down'));
    now = 30_000;
    await expect(live.current()).resolves.toEqual([]);
    now = 65_000;
    await expect(live.current()).resolves.toBeUndefined();
  });

  it('refuses a malformed list from auth', () => {
    expect(() => parseOperatorList({})).toThrow();
    expect(() =>
      parseOperatorList({ operators: [{ id: 'x', scopes: ['root'], keySha256: sha('k') }] }),
    ).toThrow();
    expect(
      parseOperatorList({ operators: [{ id: 'x', scopes: ['read'], keySha256: sha('k') }] }),
    ).toHaveLength(1);
  });
});
