import { chaosEnv } from './chaos-env';

export type AppName =
  'auth' | 'kyc' | 'orders' | 'payment-ingest' | 'chain-settlement' | 'webhook-dispatch' | 'gateway';

// A further process of an app (instance "2" logs to <app>-2.log), or one with settings of its own.
export interface ProcessOptions {
  instance?: string;
  env?: Record<string, string>;
}

async function post(path: string, options?: ProcessOptions): Promise<number> {
  const res = await fetch(`${chaosEnv.controlUrl()}${path}`, {
    method: 'POST',
    ...(options ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(options) } : {}),
  });
  const body = (await res.json()) as { ms?: number; error?: string };
  if (!res.ok) throw new Error(`chaos control ${path}: ${res.status} ${body.error ?? ''}`);
  return body.ms ?? 0;
}

// The faults the suite injects, carried out by the global setup that owns the processes. Each call
// resolves once done: an app is dead, or started and ready; a server is stopped, or started.
export const platformControl = {
  kill: (app: AppName, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL', opts?: Pick<ProcessOptions, 'instance'>) =>
    post(`/apps/${app}/kill/${signal}`, opts),
  start: (app: AppName, opts?: ProcessOptions) => post(`/apps/${app}/start`, opts),
  // stopped cleanly and started again, with `env` on top of the platform's (none: back to normal)
  restart: async (app: AppName, env?: Record<string, string>) =>
    (await post(`/apps/${app}/kill/SIGTERM`)) + (await post(`/apps/${app}/start`, env ? { env } : undefined)),
  stopServer: (server: 'kafka' | 'postgres') => post(`/infra/${server}/stop`),
  startServer: (server: 'kafka' | 'postgres') => post(`/infra/${server}/start`),
};
