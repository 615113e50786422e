import { CreateKycUserRequest } from '@onramp/sdk';
import { demoKycUser } from '@onramp/testing';

import { e2e } from './env';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

// Raw HTTP, for what a merchant's SDK never sends: malformed or oversized bodies, wrong content
// types, forged or expired tokens, the admin API.
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

// The token endpoint's wire format itself (the SDK keeps the token to itself).
export async function fetchToken(
  creds: MerchantCredentials,
  host = e2e.baseUrl(),
): Promise<ApiResponse<{ access_token: string; token_type: string; expires_in: number }>> {
  const basic = Buffer.from(`${creds.merchantId}:${creds.merchantSecret}`).toString('base64');
  return call(`${host}/auth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
}

// PII the specs send; the log scan after the run fails if any of it reached a log.
export const E2E_PAYER_IBAN = 'GB33BUKB20201555555555';
export const E2E_PII = {
  'a payer IBAN': E2E_PAYER_IBAN,
  "a payer's name": 'Ada Lovelace',
  "another payer's name": 'Grace Hopper',
  "an end user's email": 'ada@example.com',
  "an end user's street": 'Unter den Linden 1',
};

export function kycUserBody(overrides: Partial<CreateKycUserRequest> = {}): CreateKycUserRequest {
  return { ...demoKycUser(), ...overrides };
}
