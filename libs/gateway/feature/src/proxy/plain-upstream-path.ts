// A request path of non-empty segments of unreserved characters (RFC 3986), none starting with a
// dot: nothing percent-encoded, no backslash, no empty or dot segment. Whatever a proxy or a URL
// parser could read differently in a path is absent from it.
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;

// The path and query a service sees for a request its route matched, when the request's path is
// plain: `upstreamPrefix` in place of `prefix`, the rest and the client's query byte for byte, which
// is what @fastify/http-proxy and the URL parser make of such a path. Undefined for any other path:
// it takes the proxy's own handler, which validates (traversal, encoded separators, foreign origins)
// and resolves it. Only a route's own prefix is replaced, in the case the router matched it.
export function plainUpstreamPath(url: string, prefix: string, upstreamPrefix: string): string | undefined {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (!path.startsWith(prefix) || !PLAIN_PATH.test(path)) return undefined;
  const rest = path.slice(prefix.length);
  if (rest !== '' && !rest.startsWith('/')) return undefined; // /orders-x is not under /orders
  return upstreamPrefix + rest + (query < 0 ? '' : url.slice(query));
}
