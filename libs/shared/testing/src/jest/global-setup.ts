import './register-path-aliases'; // first: what follows imports @onramp/*

import { InfraHandle, loadInfraConfig, startInfra } from '@onramp/platform-infra';

import { exportToWorkers } from '../test-env';

// Shared with global-teardown.ts: jest runs both in the same (main) process.
export const INFRA_HANDLE = Symbol.for('onramp.testing.infra');
type WithInfra = typeof globalThis & { [INFRA_HANDLE]?: InfraHandle };

// Starts Postgres, Kafka and anvil once for the integration run. Jest workers are forked after
// this returns, so the env vars set here reach every suite.
export default async function globalSetup(): Promise<void> {
  const t0 = Date.now();
  const infra = await startInfra(loadInfraConfig());
  (globalThis as WithInfra)[INFRA_HANDLE] = infra;
  exportToWorkers(infra.env);

  // Ctrl-C or a kill of the runner: stop the servers, then exit. Exit handlers inside each
  // start function and detached watchdogs cover the harder deaths.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      void infra.stop().finally(() => process.exit(130));
    });
  }
  const parts = infra.report.map((r) => `${r.name} ${r.source} ${r.ms} ms`).join(', ');
  process.stderr.write(`\n[onramp] integration infra up in ${Date.now() - t0} ms (${parts})\n`);
}
