import { ACCESS_TOKEN_TYPE, ACCESS_TOKEN_USE } from './token-claims';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccessTokenHeader {
  kid: string;
  typ: string;
}

// The JOSE header of a merchant access token, or undefined when it is not one: a kid to find the
// key, and typ "at+jwt" (RFC 9068), so an ID token or any other JWT signed by the same key is
// never taken for an access token.
export function accessTokenHeader(rawJwt: string): AccessTokenHeader | undefined {
  try {
    const header = JSON.parse(Buffer.from(rawJwt.split('.')[0], 'base64url').toString()) as {
      kid?: unknown;
      typ?: unknown;
    };
    if (typeof header.kid !== 'string' || typeof header.typ !== 'string') return undefined;
    const typ = header.typ.toLowerCase();
    if (typ !== ACCESS_TOKEN_TYPE && typ !== `application/${ACCESS_TOKEN_TYPE}`) return undefined;
    return { kid: header.kid, typ };
  } catch {
    return undefined;
  }
}

// Claims beyond what the JWT library checks (signature, alg, iss, aud, exp when present): exp and
// iat must be there (a token without exp would never expire), sub must be a merchant id (a UUID:
// anything else would reach a uuid column and fail there), and token_use must be ours.
export function accessTokenClaimsProblem(payload: Record<string, unknown>): string | undefined {
  if (payload['token_use'] !== ACCESS_TOKEN_USE) return 'not a merchant access token';
  if (typeof payload['exp'] !== 'number' || !Number.isFinite(payload['exp'])) return 'exp is missing';
  if (typeof payload['iat'] !== 'number' || !Number.isFinite(payload['iat'])) return 'iat is missing';
  if (typeof payload['sub'] !== 'string' || !UUID.test(payload['sub'])) return 'sub is not a merchant id';
  return undefined;
}
