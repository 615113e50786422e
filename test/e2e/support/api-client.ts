import { e2e } from './env';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = unknown>(url: string, init: RequestInit = {}): Promise<ApiResponse<T>> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // keep the text
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export interface MerchantCredentials {
  merchantId: string;
  merchantSecret: string;
}

export async function createMerchant(name: string): Promise<MerchantCredentials> {
  const res = await call<MerchantCredentials>(`${e2e.adminUrl()}/admin/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${e2e.adminKey()}` },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`create merchant: ${res.status} ${res.text}`);
  return res.body;
}

export async function fetchToken(
  creds: MerchantCredentials,
  host = e2e.baseUrl(),
): Promise<ApiResponse<{ access_token: string; token_type: string; expires_in: number }>> {
  const basic = Buffer.from(`${creds.merchantId}:${creds.merchantSecret}`).toString('base64');
  return call(`${host}/auth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
}

// A merchant's view of the API: caches the token and, on a 401, fetches a new one and retries once
// (SPEC.md, Authentication 4).
export class MerchantApi {
  private token?: string;

  constructor(readonly creds: MerchantCredentials) {}

  async request<T = unknown>(
    host: 'base' | 'kyc',
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const send = async () =>
      call<T>(`${host === 'base' ? e2e.baseUrl() : e2e.kycUrl()}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${await this.accessToken()}`,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.headers ?? {}),
        },
        body:
          init.body === undefined
            ? undefined
            : typeof init.body === 'string'
              ? init.body
              : JSON.stringify(init.body),
      });
    const first = await send();
    if (first.status !== 401) return first;
    this.token = undefined;
    return send();
  }

  async accessToken(): Promise<string> {
    if (!this.token) {
      const res = await fetchToken(this.creds);
      if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
      this.token = res.body.access_token;
    }
    return this.token;
  }
}

export function kycUserBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1990-12-10',
    nationality: 'DE',
    email: 'ada@example.com',
    address: { line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE' },
    ...overrides,
  };
}
