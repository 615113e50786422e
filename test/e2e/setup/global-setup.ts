// Jest's moduleNameMapper does not reach globalSetup: register the path aliases first.
// eslint-disable-next-line @nx/enforce-module-boundaries
import '../../../libs/shared/testing/src/jest/register-path-aliases';

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launchEmbedded, launchPlatform, loadRunnerConfig, PlatformHandle } from '@onramp/platform-runner';

declare global {
  var __ONRAMP_E2E__: PlatformHandle | undefined;
}

export const E2E_TOKEN_TTL_SECONDS = 8;

// E2E_MODE=distributed (default): every app as its own process against real Postgres, Kafka and
// anvil. E2E_MODE=embedded: the `npm start` default, all apps in this process over the embedded
// transport. Ports moved by +1000 (E2E_PORT_OFFSET) so a running `npm start` can stay up beside the suite.
export default async function globalSetup(): Promise<void> {
  process.env.TZ = 'UTC';
  const mode = process.env.E2E_MODE ?? 'distributed';
  if (mode !== 'distributed' && mode !== 'embedded')
    throw new Error(`E2E_MODE must be distributed or embedded, got ${mode}`);
  const dir = mkdtempSync(join(tmpdir(), 'onramp-e2e-'));
  const t0 = Date.now();
  const launch = mode === 'embedded' ? launchEmbedded : launchPlatform;
  const compiledRoot =
    mode === 'distributed' && process.env.E2E_COMPILED === '1' ? compiledInstall() : undefined;
  const platform = await launch({
    config: loadRunnerConfig(process.env),
    compiledRoot,
    dataDir: undefined,
    logDir: join(dir, 'logs'),
    portOffset: Number(process.env.E2E_PORT_OFFSET ?? 1000),
    env: {
      AUTH_TOKEN_TTL_SECONDS: String(E2E_TOKEN_TTL_SECONDS),
      LOG_LEVEL: 'info',
      WEBHOOK_RETRY_BASE_MS: '300',
      // Embedded: the public limits off, so the gateway hands plain requests to the services before
      // its router (proxy/early-handoff.ts) and the suite runs through that path; the distributed
      // run keeps every limit on, as `npm start` does.
      ...(mode === 'embedded'
        ? {
            RATE_LIMIT_PER_SECOND: '0',
            RATE_LIMIT_PER_CLIENT_PER_SECOND: '0',
            AUTH_TOKEN_RATE_LIMIT_PER_SECOND: '0',
            AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
          }
        : {}),
    },
  });
  globalThis.__ONRAMP_E2E__ = platform;
  const from = compiledRoot ? `compiled, production dependencies only, from ${compiledRoot}` : 'sources';
  process.stderr.write(
    `\n[e2e] ${mode} platform (${from}) up in ${Date.now() - t0} ms; logs in ${join(dir, 'logs')}\n`,
  );
  Object.assign(process.env, {
    E2E_BASE_URL: platform.urls.base,
    E2E_KYC_URL: platform.urls.kyc,
    E2E_ADMIN_URL: platform.urls.admin,
    E2E_RPC_URL: platform.urls.rpc,
    E2E_USDC_ADDRESS: platform.env.USDC_ADDRESS,
    E2E_USDC_OWNER_KEY: platform.env.USDC_OWNER_KEY,
    E2E_ADMIN_API_KEY: platform.secrets.ADMIN_API_KEY,
    E2E_TOKEN_TTL_SECONDS: String(E2E_TOKEN_TTL_SECONDS),
    E2E_LOG_DIR: join(dir, 'logs'),
    // what the PII-at-rest spec dumps: every schema, and the topics in distributed mode
    E2E_DATABASE_URL: platform.env.DATABASE_URL,
    E2E_KAFKA_BROKERS: platform.env.KAFKA_BROKERS ?? '',
    E2E_MODE: mode,
  });
}

// E2E_COMPILED=1 (`npm run test:e2e:distributed` sets it after `npm run build`): the apps run from the
// build with production dependencies only, as in the image, so a broken build cannot pass the suite.
function compiledInstall(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports, @nx/enforce-module-boundaries -- a plain Node build script
  const { productionInstall } = require('../../../tools/build/production-install.js') as {
    productionInstall: (dir?: string) => string;
  };
  return productionInstall(process.env.E2E_COMPILED_ROOT || undefined);
}
