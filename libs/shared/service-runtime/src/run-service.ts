import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

// What every service's main.ts does: the logger first, so that even a configuration error at boot is
// a JSON line with LOG_FORMAT=json; then the service, its config parsed from `env` (the process
// environment, given by main.ts: the one place a service reads it). A service that cannot start
// logs why and ends the process with 1, for the orchestrator to see and restart.
export function runService(
  name: string,
  env: NodeJS.ProcessEnv,
  start: (env: NodeJS.ProcessEnv) => Promise<unknown>,
): void {
  installAppLogger(name, loadLoggingConfig(env));
  if (process.execArgv.some((a) => a.startsWith('--cpu-prof'))) exitAfterShutdownSignal();
  Promise.resolve()
    .then(() => start(env))
    .catch((err: unknown) => {
      new Logger(name).error(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}

// Node writes a --cpu-prof profile only when the process exits, not when a signal ends it; Nest's
// shutdown hook closes the app on SIGTERM and then raises the signal again to end the process. With
// this listener still attached the second signal is ours: exit instead, and the profile is written.
function exitAfterShutdownSignal(): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    let seen = 0;
    process.on(signal, () => {
      seen += 1;
      if (seen > 1) process.exit(0);
    });
  }
}
