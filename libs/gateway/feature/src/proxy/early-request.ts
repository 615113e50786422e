import { IncomingHttpHeaders } from 'node:http';

import { ResolvedRoute } from '../routes';
import { InProcessUpstreams } from './in-process-upstreams';

// Which requests the early hand-off (early-handoff.ts) may take, decided as the gateway's Fastify
// would route and read them; whatever these decline goes to Fastify.

// What @fastify/http-proxy routes when a route names no methods.
const PROXY_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];
// A body is handed over early only with these; any other method that carries one takes the routed
// path (DELETE or OPTIONS with a body is rare).
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const DECIMAL_LENGTH = /^\d{1,10}$/;

// A proxied route of the listener, with the Host it answers for when routing by host.
export interface EarlyRouteSpec {
  route: ResolvedRoute;
  host?: RegExp;
}

export interface EarlyRoute {
  prefix: string;
  upstreamPrefix: string;
  exact: boolean;
  methods: ReadonlySet<string>;
  host?: RegExp;
  port: number;
  upstream: string;
}

// The routes whose upstream may be a server of this process (plain HTTP on loopback), longest prefix
// first: the router's choice among overlapping prefixes.
export function earlyRoutesOf(specs: EarlyRouteSpec[]): EarlyRoute[] {
  const routes = specs.flatMap(({ route, host }): EarlyRoute[] => {
    const port = InProcessUpstreams.portOf(route.upstreamUrl);
    if (port === undefined) return [];
    return [
      {
        prefix: route.path,
        upstreamPrefix: route.upstreamPath ?? route.path,
        exact: route.match === 'exact',
        methods: new Set(route.methods ?? PROXY_METHODS),
        host,
        port,
        upstream: route.upstream,
      },
    ];
  });
  return routes.sort((a, b) => b.prefix.length - a.prefix.length);
}

// The route Fastify would pick for this request, and its template (the metrics' route label:
// `/orders`, `/orders/` or `/orders/*`, as @fastify/http-proxy registers them).
export function matchEarlyRoute(
  routes: EarlyRoute[],
  path: string,
  method: string,
  host: string | undefined,
): { route: EarlyRoute; label: string } | undefined {
  for (const route of routes) {
    if (!path.startsWith(route.prefix)) continue;
    const rest = path.slice(route.prefix.length);
    const label =
      rest === ''
        ? route.prefix
        : rest === '/'
          ? `${route.prefix}/`
          : !route.exact && rest[0] === '/'
            ? `${route.prefix}/*`
            : undefined;
    if (label === undefined) continue;
    if (route.host && !(host !== undefined && route.host.test(host))) continue;
    // A method the route does not take: Fastify's router decides (a 404, or another route).
    return route.methods.has(method) ? { route, label } : undefined;
  }
  return undefined;
}

// What the request carries, as Fastify would read it: undefined for no body, 'read' for a body to
// read, false when only the routed path may take it.
export function earlyBodyOf(
  method: string,
  headers: IncomingHttpHeaders,
  limit: number,
): 'read' | undefined | false {
  if (headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  const none = length === undefined || length === '0';
  // Fastify reads no body of a GET or HEAD, nor of an untyped request that declares none.
  if (method === 'GET' || method === 'HEAD' || headers['content-type'] === undefined)
    return none ? undefined : false;
  if (!BODY_METHODS.has(method)) return false;
  if (length !== undefined && !(DECIMAL_LENGTH.test(length) && Number(length) <= limit)) return false;
  return 'read';
}
