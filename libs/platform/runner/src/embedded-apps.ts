import { loadAuthConfig, startAuth } from '@onramp/auth-feature';
import { InProcessUpstreams, loadGatewayConfig, startGateway } from '@onramp/gateway-feature';
import { loadKycConfig, startKyc } from '@onramp/kyc-feature';
import { loadOrdersConfig, startOrders } from '@onramp/orders-feature';
import { loadPaymentIngestConfig, startPaymentIngest } from '@onramp/payments-feature';
import { loadChainSettlementConfig, startChainSettlement } from '@onramp/settlement-feature';
import { loadWebhookConfig, startWebhookDispatch } from '@onramp/webhooks-feature';

import type { AppName } from './platform';

export interface Closable {
  close(): Promise<void>;
  // A service's Nest application: its HTTP server, which the gateway reaches in memory.
  getHttpServer?(): unknown;
}

export type AppStarter = () => Promise<Closable | Closable[]>;

// Starts one service from the environment the runner built for it, as its main.ts does from the
// process's: parse the service's config, pass it to its start function. `upstreams` are the
// services' servers in this process, which the gateway reaches without a loopback socket (unset:
// over loopback TCP as in distributed mode).
export type ServiceStarter = (
  env: NodeJS.ProcessEnv,
  upstreams?: InProcessUpstreams,
) => Promise<Closable | Closable[]>;

// Every service is a library (libs/<service>/feature), imported like any other; the Record makes a
// service without a starter a type error, not a failure at launch.
const STARTERS: Record<AppName, ServiceStarter> = {
  auth: (env) => startAuth(loadAuthConfig(env)),
  gateway: (env, upstreams) => startGateway(loadGatewayConfig(env), { inProcessUpstreams: upstreams }),
  kyc: (env) => startKyc(loadKycConfig(env)),
  orders: (env) => startOrders(loadOrdersConfig(env)),
  'payment-ingest': (env) => startPaymentIngest(loadPaymentIngestConfig(env)),
  'chain-settlement': (env) => startChainSettlement(loadChainSettlementConfig(env)),
  'webhook-dispatch': (env) => startWebhookDispatch(loadWebhookConfig(env)),
};

export function loadAppStarter(
  name: AppName,
  env: NodeJS.ProcessEnv,
  upstreams?: InProcessUpstreams,
): AppStarter {
  const start = STARTERS[name];
  return () => start(env, upstreams);
}

// Nest's enableShutdownHooks() makes every app close itself on SIGTERM and then re-raise the signal.
// Seven apps doing that in one process race each other and the runner, which owns shutdown here
// (apps first, then Postgres and anvil), so the hooks the apps install while starting are removed.
const SHUTDOWN_SIGNALS: NodeJS.Signals[] = [
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGSEGV',
  'SIGUSR2',
  'SIGTERM',
];

export async function withoutSignalHooks<T>(start: () => Promise<T>): Promise<T> {
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(SHUTDOWN_SIGNALS.map((s) => [s, new Set(emitter.listeners(s))]));
  try {
    return await start();
  } finally {
    for (const signal of SHUTDOWN_SIGNALS) {
      for (const listener of emitter.listeners(signal)) {
        if (!before.get(signal)?.has(listener)) {
          emitter.removeListener(signal, listener as (...args: unknown[]) => void);
        }
      }
    }
  }
}
