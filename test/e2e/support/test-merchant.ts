import { OnrampApiError, OnrampClient } from '@onramp/sdk';

import { ApiResponse, call, MerchantCredentials } from './api-client';
import { e2e } from './env';

export interface SeenResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
}

// The merchant SDK as a merchant uses it, wired to the suite's gateway. Its fetch also logs every
// answer, so a test can assert the exact status and headers the SDK's return values do not carry.
export class TestMerchant extends OnrampClient {
  constructor(
    readonly creds: MerchantCredentials,
    readonly responses: SeenResponse[] = [],
  ) {
    super({
      baseUrl: e2e.baseUrl(),
      kycUrl: e2e.kycUrl(),
      ...creds,
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        responses.push({ method: init.method ?? 'GET', url, status: res.status, headers: res.headers });
        return res;
      },
    });
  }

  lastResponse(): SeenResponse {
    const last = this.responses.at(-1);
    if (!last) throw new Error('no response yet');
    return last;
  }

  // A hand-made request with this merchant's token: malformed, oversized or mistyped bodies.
  async raw(host: 'base' | 'kyc', path: string, init: RequestInit = {}): Promise<ApiResponse> {
    const root = host === 'base' ? e2e.baseUrl() : e2e.kycUrl();
    return call(`${root}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${await this.getAccessToken()}`, ...(init.headers ?? {}) },
    });
  }
}

// The OnrampApiError a call must fail with.
export async function apiError(promise: Promise<unknown>): Promise<OnrampApiError> {
  const outcome = await promise.then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ('value' in outcome) throw new Error(`expected an OnrampApiError, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof OnrampApiError)) throw outcome.error;
  return outcome.error;
}
