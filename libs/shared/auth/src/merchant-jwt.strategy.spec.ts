import { generateKeyPairSync } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import jwt from 'jsonwebtoken';
import passport from 'passport';

import { MERCHANT_JWT, MerchantJwtStrategy } from './merchant-jwt.strategy';

// The strategy against a stand-in auth service (JWKS and revocation list over HTTP): a token is
// verified once, then vouched for by the cache until it expires or its key is rotated out.
describe('MerchantJwtStrategy', () => {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  let jwks: { keys: object[] };
  let server: Server;
  let strategy: MerchantJwtStrategy;
  const merchantId = '2f1d3c4b-0000-4000-8000-000000000001';

  beforeAll(async () => {
    jwks = { keys: [{ ...pair.publicKey.export({ format: 'jwk' }), kid: 'k1' }] };
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.url?.includes('jwks') ? jwks : { minimumVersions: {} }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    strategy = new MerchantJwtStrategy({ authUrl, issuer: 'onramp-auth', audience: 'onramp' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await new Promise((resolve) => server.close(resolve));
  });

  const token = (expiresInS: number, kid = 'k1') =>
    jwt.sign({ token_use: 'merchant_access', ver: 0 }, pair.privateKey, {
      algorithm: 'ES256',
      keyid: kid,
      header: { alg: 'ES256', typ: 'at+jwt', kid },
      subject: merchantId,
      issuer: 'onramp-auth',
      audience: 'onramp',
      expiresIn: expiresInS,
    });
  const authenticate = (bearer: string) =>
    new Promise<{ user: unknown; info: unknown }>((resolve, reject) =>
      passport.authenticate(MERCHANT_JWT, { session: false }, (err: unknown, user: unknown, info: unknown) =>
        err ? reject(err) : resolve({ user, info }),
      )({ headers: { authorization: `Bearer ${bearer}` } }, {}, reject),
    );

  it('verifies a token once, then takes it from the cache until it expires', async () => {
    expect(strategy).toBeDefined();
    // passport-jwt calls verify through the module object, so the spy sees every signature check.
    const verify = jest.spyOn(jwt, 'verify');
    const t = token(60);
    expect((await authenticate(t)).user).toEqual({ merchantId });
    expect((await authenticate(t)).user).toEqual({ merchantId });
    expect(verify).toHaveBeenCalledTimes(1);

    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    const expired = await authenticate(t);
    expect(expired.user).toBe(false);
    expect((expired.info as Error).name).toBe('TokenExpiredError');
    (Date.now as jest.Mock).mockRestore();
  });

  it('checks the signature again once the key was rotated out', async () => {
    const t = token(60);
    expect((await authenticate(t)).user).toEqual({ merchantId });
    const verify = jest.spyOn(jwt, 'verify');
    verify.mockClear();
    jwks = {
      keys: [
        {
          ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
          kid: 'k2',
        },
      ],
    };
    // An unknown kid makes the JWKS cache refetch (at most every 5 s); k1 is then gone, so its
    // tokens are checked again, and refused.
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 6_000);
    expect((await authenticate(token(60, 'k2'))).user).toBe(false);
    expect((await authenticate(t)).user).toBe(false);
    expect(verify).toHaveBeenCalledTimes(2);
    (Date.now as jest.Mock).mockRestore();
  });
});
