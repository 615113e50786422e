import { Inject, Injectable } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import { DataSource } from 'typeorm';

import { ACCESS_TOKEN_TYPE, JWT_ALGORITHM } from '@onramp/auth';
import { badRequest, ProblemException } from '@onramp/http';

import { AUTH_CONFIG, AuthConfig, isUuid } from '../config';
import { SigningKeysService } from '../keys/signing-keys.service';
import { MerchantsRepository } from '../merchants/merchants.repository';
import { SecretHasher } from '../merchants/secret-hasher';
import { AuthProblemTypes } from '../problem-types';
import { buildAccessTokenClaims } from './access-token-claims';
import { parseBasicCredentials } from './basic-credentials';

export interface IssueTokenInput {
  authorization: string | undefined;
  body: unknown; // optional form or JSON body; only grant_type is read
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const invalidClient = () =>
  new ProblemException(401, 'invalid or missing client credentials (HTTP Basic merchantId:merchantSecret)', {
    type: AuthProblemTypes.InvalidClient,
    headers: { 'WWW-Authenticate': 'Basic realm="onramp"', ...NO_STORE },
  });

function grantTypeOf(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return (body as Record<string, unknown>)['grant_type'];
}

// OAuth 2.0 client-credentials grant with the client authenticated by HTTP Basic.
@Injectable()
export class IssueTokenUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsRepository,
    private readonly hasher: SecretHasher,
    private readonly keys: SigningKeysService,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  async execute(input: IssueTokenInput): Promise<TokenResponse> {
    const grantType = grantTypeOf(input.body);
    if (grantType !== undefined && grantType !== 'client_credentials') {
      throw badRequest('unsupported grant_type; only client_credentials is supported', [
        { field: 'grant_type', message: 'grant_type must be client_credentials' },
      ]);
    }

    const credentials = parseBasicCredentials(input.authorization);
    if (!credentials) throw invalidClient();
    const merchant = isUuid(credentials.clientId)
      ? await this.merchants.find(this.dataSource.manager, credentials.clientId.toLowerCase())
      : undefined;
    // Always one argon2 verification, against a dummy hash for unknown ids: no timing oracle.
    const valid = await this.hasher.verify(merchant?.secretHash, credentials.clientSecret);
    if (!merchant || !valid) throw invalidClient();

    const signer = await this.keys.activeSigner();
    const claims = buildAccessTokenClaims({
      merchantId: merchant.id,
      tokenVersion: merchant.tokenVersion,
      issuer: this.config.issuer,
      audience: this.config.audience,
      ttlSeconds: this.config.tokenTtlSeconds,
      now: new Date(),
    });
    const accessToken = sign(claims, signer.privateKey, {
      algorithm: JWT_ALGORITHM,
      keyid: signer.kid,
      header: { alg: JWT_ALGORITHM, typ: ACCESS_TOKEN_TYPE },
    });
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.config.tokenTtlSeconds };
  }
}
