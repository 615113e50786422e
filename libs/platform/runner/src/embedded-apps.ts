import { join } from 'node:path';

import type { AppName } from './platform';

export interface Closable {
  close(): Promise<void>;
}

export type AppStarter = () => Promise<Closable | Closable[]>;

// Each app's apps/<name>/src/bootstrap.ts exports one of these (main.ts calls the same function).
const STARTERS: Record<AppName, string> = {
  auth: 'startAuth',
  kyc: 'startKyc',
  orders: 'startOrders',
  'payment-ingest': 'startPaymentIngest',
  'chain-settlement': 'startChainSettlement',
  'webhook-dispatch': 'startWebhookDispatch',
  gateway: 'startGateway',
};

// A plugin load by path at runtime: the runner is tooling and must not depend on apps at build time
// (Nx forbids importing an app), yet in embedded mode it hosts all of them in its own process.
// Needs a TypeScript require hook in place (swc-node under `npm start`, Jest's under the e2e suite).
export function loadAppStarter(root: string, name: AppName): AppStarter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- runtime plugin load, see above
  const mod = require(join(root, 'apps', name, 'src', 'bootstrap')) as Record<string, unknown>;
  const starter = mod[STARTERS[name]];
  if (typeof starter !== 'function') {
    throw new Error(`apps/${name}/src/bootstrap.ts does not export ${STARTERS[name]}()`);
  }
  return starter as AppStarter;
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
