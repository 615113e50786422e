import { IncomingHttpHeaders } from 'node:http';

// The admin credential an operator presents to the gateway: `Authorization: Bearer <key>` or
// `X-Admin-Key: <key>` (the bootstrap ADMIN_API_KEY or an operator key).
export function presentedAdminKey(headers: IncomingHttpHeaders): string | undefined {
  const explicit = headers['x-admin-key'];
  if (typeof explicit === 'string' && explicit.length > 0) return explicit;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

export const MIN_PRODUCTION_ADMIN_KEY_LENGTH = 24;

// A problem with the key for this mode, or undefined. An unset key is allowed.
export function adminApiKeyProblem(
  mode: 'sandbox' | 'production',
  key: string | undefined,
): string | undefined {
  if (mode === 'production' && key && key.length < MIN_PRODUCTION_ADMIN_KEY_LENGTH) {
    return `ADMIN_API_KEY must be at least ${MIN_PRODUCTION_ADMIN_KEY_LENGTH} characters in production`;
  }
  return undefined;
}
