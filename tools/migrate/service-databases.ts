import { SERVICE_DATABASE as AUTH_DATABASE } from '@onramp/auth-feature';
import { SERVICE_DATABASE as KYC_DATABASE } from '@onramp/kyc-feature';
import { SERVICE_DATABASE as ORDERS_DATABASE } from '@onramp/orders-feature';
import { SERVICE_DATABASE as PAYMENTS_DATABASE } from '@onramp/payments-feature';
import type { ServiceDataSourceOptions } from '@onramp/persistence';
import { SERVICE_DATABASE as SETTLEMENT_DATABASE } from '@onramp/settlement-feature';
import { SERVICE_DATABASE as WEBHOOKS_DATABASE } from '@onramp/webhooks-feature';

// The services that own a schema (the gateway has none), in the order `migrate all` runs them.
export const DATABASE_SERVICES = [
  'auth',
  'kyc',
  'orders',
  'payment-ingest',
  'chain-settlement',
  'webhook-dispatch',
] as const;
export type DatabaseService = (typeof DATABASE_SERVICES)[number];

export function isDatabaseService(name: string): name is DatabaseService {
  return (DATABASE_SERVICES as readonly string[]).includes(name);
}

// Each service's schema, entities and migrations, imported from its library: the list the service
// migrates at boot is the one this command runs.
const SERVICE_DATABASES: Record<DatabaseService, Omit<ServiceDataSourceOptions, 'url'>> = {
  auth: AUTH_DATABASE,
  kyc: KYC_DATABASE,
  orders: ORDERS_DATABASE,
  'payment-ingest': PAYMENTS_DATABASE,
  'chain-settlement': SETTLEMENT_DATABASE,
  'webhook-dispatch': WEBHOOKS_DATABASE,
};

export function loadServiceDatabase(name: DatabaseService): Omit<ServiceDataSourceOptions, 'url'> {
  return SERVICE_DATABASES[name];
}
