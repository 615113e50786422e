// The API documents are generated from the apps' own controllers and filtered by the gateway's
// route table, so they describe what is really served. Only this tool imports apps.
/* eslint-disable @nx/enforce-module-boundaries */
import { AppModule as AuthAppModule } from '../../apps/auth/src/app.module';
import { isBlockedPath, ListenerName, ROUTE_TABLE } from '../../apps/gateway/src/routes';
import { AppModule as KycAppModule } from '../../apps/kyc/src/app.module';
import { AppModule as OrdersAppModule } from '../../apps/orders/src/app.module';
import { AppModule as PaymentIngestAppModule } from '../../apps/payment-ingest/src/app.module';
import { AppModule as WebhookDispatchAppModule } from '../../apps/webhook-dispatch/src/app.module';
/* eslint-enable @nx/enforce-module-boundaries */

export type PublicHost = Exclude<ListenerName, 'admin'>;

// Every app with an endpoint on a public host (chain-settlement has none).
export const PUBLIC_APP_MODULES = [
  AuthAppModule,
  KycAppModule,
  OrdersAppModule,
  PaymentIngestAppModule,
  WebhookDispatchAppModule,
];

// True when the gateway forwards `method path` on this host (path as in OpenAPI, `{uuid}` style).
export function servedOn(host: PublicHost, method: string, path: string): boolean {
  if (isBlockedPath(path)) return false;
  return ROUTE_TABLE[host].some(
    (rule) =>
      (rule.path === path || (rule.match === 'subtree' && path.startsWith(`${rule.path}/`))) &&
      (!rule.methods || rule.methods.includes(method.toUpperCase())),
  );
}
