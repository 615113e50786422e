import { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';

import { TraceContext, traceHeaders } from '@onramp/observability';

import { TrustedProxies } from '../edge/trusted-proxies';
import { forwardedHeaders } from './forwarded-headers';

// The headers a service sees for a client's request: `headers` (the client's, or the proxy's copy of
// them) with the forwarded ones for the connection `req` came over, and the gateway's trace: the
// service continues the gateway's span, one trace from the edge to the events. Both the routed path
// (proxy-routes.ts) and the early hand-off (early-handoff.ts) send these.
export function clientUpstreamHeaders(
  req: IncomingMessage,
  headers: IncomingHttpHeaders,
  requestId: string,
  trace: TraceContext,
  trustedProxies: TrustedProxies,
): IncomingHttpHeaders {
  const remoteAddress = req.socket.remoteAddress;
  return {
    ...forwardedHeaders(
      headers,
      { remoteAddress, encrypted: req.socket instanceof TLSSocket, host: req.headers.host, requestId },
      trustedProxies.has(remoteAddress),
    ),
    ...traceHeaders(trace),
  };
}
