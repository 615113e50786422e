import { OperatorScope } from '@onramp/auth';

import { GatewayConfig, UpstreamName } from './config';

export type ListenerName = 'base' | 'kyc' | 'admin';

export interface RouteRule {
  // Forwarded unchanged (same path, query and body bytes) to the upstream.
  path: string;
  // 'exact': only `path`; 'subtree': `path` and everything below `path/`.
  match: 'exact' | 'subtree';
  upstream: UpstreamName;
  methods?: string[]; // default: every method
  sandboxOnly?: boolean;
  // Upstream prefix that replaces `path` (default: `path` itself, unchanged).
  upstreamPath?: string;
  // Admin listener: the operator scope a change needs (reads need `read`).
  writeScope?: OperatorScope;
}

// The whole public surface of the platform. A path not listed here is a 404 at the gateway.
// To expose a new service endpoint, add a row (admin endpoints of other services go under admin).
export const ROUTE_TABLE: Record<ListenerName, RouteRule[]> = {
  base: [
    { path: '/auth/token', match: 'exact', methods: ['POST'], upstream: 'auth' },
    { path: '/orders', match: 'subtree', upstream: 'orders' },
    { path: '/merchant/webhook', match: 'subtree', upstream: 'webhookDispatch' },
    { path: '/sandbox', match: 'subtree', upstream: 'paymentIngest', sandboxOnly: true },
    // The sandbox dashboard reads KYC users through its own origin (no CORS): GET only, same token.
    {
      path: '/dashboard/kyc',
      match: 'subtree',
      methods: ['GET'],
      upstream: 'kyc',
      upstreamPath: '/kyc',
      sandboxOnly: true,
    },
  ],
  kyc: [
    { path: '/auth/token', match: 'exact', methods: ['POST'], upstream: 'auth' },
    { path: '/kyc', match: 'subtree', upstream: 'kyc' },
  ],
  admin: [
    // Merchants, their secrets and auth's signing keys.
    { path: '/admin', match: 'subtree', upstream: 'auth', writeScope: 'merchants' },
    // More specific prefixes win over /admin (the router prefers the longer static match).
    { path: '/admin/operators', match: 'subtree', upstream: 'auth', writeScope: 'operators' },
    { path: '/admin/orders', match: 'subtree', upstream: 'orders', writeScope: 'read' },
    {
      path: '/admin/webhook-deliveries',
      match: 'subtree',
      upstream: 'webhookDispatch',
      writeScope: 'deliveries',
    },
    { path: '/admin/kyc-users', match: 'subtree', upstream: 'kyc', writeScope: 'kyc' },
    {
      path: '/admin/bank-statements',
      match: 'exact',
      methods: ['POST'],
      upstream: 'paymentIngest',
      writeScope: 'money',
    },
    { path: '/admin/bank-transactions', match: 'subtree', upstream: 'paymentIngest', writeScope: 'money' },
    { path: '/admin/payment-policies', match: 'subtree', upstream: 'paymentIngest', writeScope: 'money' },
    {
      path: '/admin/returns',
      match: 'subtree',
      methods: ['GET'],
      upstream: 'paymentIngest',
      writeScope: 'money',
    },
    // Payouts HELD over a payout cap, and their release past the caps.
    { path: '/admin/settlements', match: 'subtree', upstream: 'chainSettlement', writeScope: 'money' },
  ],
};

// Never forwarded, whichever rule would match: service-to-service endpoints and the JWKS.
export const BLOCKED_SEGMENTS = ['internal', '.well-known'];

export interface ResolvedRoute extends RouteRule {
  upstreamUrl: string;
}

export function routesFor(
  listener: ListenerName,
  config: Pick<GatewayConfig, 'mode' | 'upstreams'>,
): ResolvedRoute[] {
  return ROUTE_TABLE[listener]
    .filter((rule) => !rule.sandboxOnly || config.mode === 'sandbox')
    .map((rule) => ({ ...rule, upstreamUrl: config.upstreams[rule.upstream] }));
}

// True when any path segment (percent-decoded, case-insensitive) is a blocked one.
export function isBlockedPath(rawPath: string): boolean {
  const path = rawPath.split('?')[0];
  return path.split('/').some((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return true; // malformed escapes are never forwarded either
    }
    return BLOCKED_SEGMENTS.includes(decoded.toLowerCase());
  });
}
