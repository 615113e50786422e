import { createHash, timingSafeEqual } from 'node:crypto';

import { commonEnv, loadEnv } from '@onramp/config';

// Who may read /metrics. The settlement's metrics name the hot wallet and its balances (when to
// drain it, when it is empty), so a port reached by accident must not tell anyone. With METRICS_TOKEN
// set, a scrape needs `Authorization: Bearer <token>` (Prometheus' `authorization` setting). Unset:
// sandbox serves anyone (a laptop), production serves no one, and says so at boot.
export interface MetricsAccess {
  token?: string;
  open: boolean;
}

// The config parser: an app's config.ts calls it with the environment it was given.
export function loadMetricsAccess(source: NodeJS.ProcessEnv): MetricsAccess {
  const env = loadEnv({ ONRAMP_MODE: commonEnv.ONRAMP_MODE, METRICS_TOKEN: commonEnv.METRICS_TOKEN }, source);
  return { token: env.METRICS_TOKEN || undefined, open: env.ONRAMP_MODE === 'sandbox' };
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export function mayReadMetrics(access: MetricsAccess, authorization: string | undefined): boolean {
  if (!access.token) return access.open;
  const presented = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(access.token));
}

export const METRICS_ACCESS = Symbol('METRICS_ACCESS');

export const METRICS_REFUSED = 'reading /metrics needs Authorization: Bearer <METRICS_TOKEN>';
