import { chaosEnv } from './chaos-env';

export type AppName =
  'auth' | 'kyc' | 'orders' | 'payment-ingest' | 'chain-settlement' | 'webhook-dispatch' | 'gateway';

async function post(path: string): Promise<number> {
  const res = await fetch(`${chaosEnv.controlUrl()}${path}`, { method: 'POST' });
  const body = (await res.json()) as { ms?: number; error?: string };
  if (!res.ok) throw new Error(`chaos control ${path}: ${res.status} ${body.error ?? ''}`);
  return body.ms ?? 0;
}

// The faults the suite injects, carried out by the global setup that owns the processes. Each call
// resolves once done: an app is dead, or started and ready; a server is stopped, or started.
export const platformControl = {
  kill: (app: AppName, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL') => post(`/apps/${app}/kill/${signal}`),
  start: (app: AppName) => post(`/apps/${app}/start`),
  stopServer: (server: 'kafka' | 'postgres') => post(`/infra/${server}/stop`),
  startServer: (server: 'kafka' | 'postgres') => post(`/infra/${server}/start`),
};
