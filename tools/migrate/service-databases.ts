import { join } from 'node:path';

import type { ServiceDataSourceOptions } from '@onramp/persistence';

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

// Loaded by path at runtime: tools may not import apps at build time (Nx boundaries). The relative
// path is the same in the sources (tools/migrate -> apps/<name>/src) and in the build (dist/...),
// so this works under `npm run migrate` (swc-node) and as node dist/tools/migrate/main.js.
export function loadServiceDatabase(name: DatabaseService): Omit<ServiceDataSourceOptions, 'url'> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- runtime plugin load, see above
  const mod = require(join(__dirname, '..', '..', 'apps', name, 'src', 'database')) as {
    SERVICE_DATABASE?: Omit<ServiceDataSourceOptions, 'url'>;
  };
  if (!mod.SERVICE_DATABASE) throw new Error(`apps/${name}/src/database does not export SERVICE_DATABASE`);
  return mod.SERVICE_DATABASE;
}
