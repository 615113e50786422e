import { loadMerchantAuthConfig, loadServiceCallers, MerchantAuthConfig, ServiceCallers } from '@onramp/auth';
import { loadLoggingConfig, LoggingConfig } from '@onramp/logging';
import { loadTransportConfig, TransportConfig } from '@onramp/messaging';
import { loadMetricsAccess, loadTracingConfig, MetricsAccess, TracingConfig } from '@onramp/observability';
import { DatabaseRuntimeConfig, loadDatabaseRuntimeConfig } from '@onramp/persistence';

// What a service gives the shared libs, which never read the environment themselves.
export interface ServiceRuntime {
  logging: LoggingConfig;
  tracing: TracingConfig;
  metrics: MetricsAccess;
  callers: ServiceCallers;
  merchantAuth: MerchantAuthConfig;
  transport: TransportConfig;
  database: DatabaseRuntimeConfig;
}

export type ServiceRuntimePart = keyof ServiceRuntime;

type Parsers = { [K in ServiceRuntimePart]: (source: NodeJS.ProcessEnv) => ServiceRuntime[K] };

// In this order, so that of two bad settings the same one is reported whichever service reads them.
const PARSERS: Parsers = {
  logging: loadLoggingConfig,
  tracing: loadTracingConfig,
  metrics: loadMetricsAccess,
  callers: loadServiceCallers,
  merchantAuth: loadMerchantAuthConfig,
  transport: (source) => loadTransportConfig(source),
  database: loadDatabaseRuntimeConfig,
};

const ALL_PARTS = Object.keys(PARSERS) as ServiceRuntimePart[];

// A service's config parser calls it once with the environment it was given. A service that has no
// use for a part leaves it out, so it neither parses nor requires that part's settings (the gateway
// has no event transport, auth no merchant tokens).
export function loadServiceRuntime(source: NodeJS.ProcessEnv): ServiceRuntime;
export function loadServiceRuntime<K extends ServiceRuntimePart>(
  source: NodeJS.ProcessEnv,
  parts: readonly K[],
): Pick<ServiceRuntime, K>;
export function loadServiceRuntime(
  source: NodeJS.ProcessEnv,
  parts: readonly ServiceRuntimePart[] = ALL_PARTS,
): Partial<ServiceRuntime> {
  const runtime: Partial<Record<ServiceRuntimePart, unknown>> = {};
  for (const part of ALL_PARTS) if (parts.includes(part)) runtime[part] = PARSERS[part](source);
  return runtime as Partial<ServiceRuntime>;
}
