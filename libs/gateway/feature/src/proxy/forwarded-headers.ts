import { IncomingHttpHeaders } from 'node:http';

export interface ClientConnection {
  remoteAddress: string | undefined;
  encrypted: boolean;
  host: string | undefined;
  requestId: string;
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

// Headers the upstream sees. Unless the connection comes from a trusted proxy (GATEWAY_TRUSTED_PROXIES),
// X-Forwarded-* from the client are replaced (a client must not choose the IP the services log or
// rate-limit on); from a trusted proxy, appended to.
export function forwardedHeaders(
  headers: IncomingHttpHeaders,
  client: ClientConnection,
  trustForwarded: boolean, // the peer is a trusted proxy
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  const ip = client.remoteAddress ?? 'unknown';
  const priorFor = first(headers['x-forwarded-for']);
  const priorProto = first(headers['x-forwarded-proto']);
  const priorHost = first(headers['x-forwarded-host']);
  out['x-forwarded-for'] = trustForwarded && priorFor ? `${priorFor}, ${ip}` : ip;
  out['x-forwarded-proto'] = trustForwarded && priorProto ? priorProto : client.encrypted ? 'https' : 'http';
  const host = trustForwarded && priorHost ? priorHost : client.host;
  if (host) out['x-forwarded-host'] = host;
  else delete out['x-forwarded-host'];
  delete out['forwarded']; // one convention only; RFC 7239's would need the same trust rules
  out['x-request-id'] = client.requestId;
  // The body is re-sent with an exact Content-Length.
  delete out['transfer-encoding'];
  return out;
}
