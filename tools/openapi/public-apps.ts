// The API documents are generated from the apps' own controllers and filtered by the gateway's
// route table, so they describe what is really served. Every service with a public endpoint is a
// library: its module is built from a sandbox config, and the preview connects to nothing.
import { AuthModule, loadAuthConfig } from '@onramp/auth-feature';
import { isBlockedPath, ListenerName, ROUTE_TABLE } from '@onramp/gateway-feature';
import { KycModule, loadKycConfig } from '@onramp/kyc-feature';
import { loadOrdersConfig, OrdersModule } from '@onramp/orders-feature';
import { loadPaymentIngestConfig, PaymentIngestModule } from '@onramp/payments-feature';
import { ChainSettlementModule, loadChainSettlementConfig } from '@onramp/settlement-feature';
import { loadWebhookConfig, WebhookDispatchModule } from '@onramp/webhooks-feature';

// A sandbox config for a module that is only compiled for its routes, never connected.
const DOCS_ENV = { DATABASE_URL: 'postgres://api-docs.invalid/none' };

export type PublicHost = Exclude<ListenerName, 'admin'>;
// The hosts with a document: the two public ones and the operators' admin listener.
export type DocumentHost = ListenerName;

// chain-settlement's config also wants a token and a signer; never used (nothing is instantiated).
const SETTLEMENT_DOCS_ENV = {
  ...DOCS_ENV,
  USDC_ADDRESS: `0x${'0'.repeat(40)}`,
  SETTLEMENT_SIGNER_URL: 'http://api-docs.invalid',
  SETTLEMENT_SIGNER_ADDRESS: `0x${'0'.repeat(40)}`,
};

// Every app with an endpoint the gateway serves (chain-settlement: its admin routes only).
export const PUBLIC_APP_MODULES = [
  AuthModule.forRoot(loadAuthConfig(DOCS_ENV)),
  KycModule.forRoot(loadKycConfig(DOCS_ENV)),
  OrdersModule.forRoot(loadOrdersConfig(DOCS_ENV)),
  PaymentIngestModule.forRoot(loadPaymentIngestConfig(DOCS_ENV)),
  ChainSettlementModule.forRoot(loadChainSettlementConfig(SETTLEMENT_DOCS_ENV)),
  WebhookDispatchModule.forRoot(loadWebhookConfig(DOCS_ENV)),
];

// True when the gateway forwards `method path` on this host (path as in OpenAPI, `{uuid}` style).
export function servedOn(host: DocumentHost, method: string, path: string): boolean {
  if (isBlockedPath(path)) return false;
  return ROUTE_TABLE[host].some(
    (rule) =>
      (rule.path === path || (rule.match === 'subtree' && path.startsWith(`${rule.path}/`))) &&
      (!rule.methods || rule.methods.includes(method.toUpperCase())),
  );
}
