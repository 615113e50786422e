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
  Promise.resolve()
    .then(() => start(env))
    .catch((err: unknown) => {
      new Logger(name).error(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}
