import { FastifyRequest } from 'fastify';

// The merchant id a token request claims to be (Basic user-id, or client_id in a form or JSON
// body), for limiting failed attempts per merchant. Best effort and never throws: anything it
// cannot read is limited by client address alone, and auth still validates the request itself.
export function tokenClientId(request: FastifyRequest): string | undefined {
  const basic = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return bounded(decoded.slice(0, colon));
  }
  const body = request.body;
  if (!Buffer.isBuffer(body) || body.length === 0) return undefined;
  const text = body.toString('utf8');
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return bounded(new URLSearchParams(text).get('client_id') ?? undefined);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'client_id' in parsed) {
      const id = (parsed as { client_id: unknown }).client_id;
      return typeof id === 'string' ? bounded(id) : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

// Case and surrounding space folded (auth compares ids as UUIDs), long values cut: the key space
// an attacker can fill is bounded by the limiter's LRU, not by our memory.
const bounded = (id: string | undefined): string | undefined =>
  id === undefined || id.trim() === '' ? undefined : id.trim().toLowerCase().slice(0, 64);
