// Jest's moduleNameMapper does not reach globalSetup: register the path aliases first.
// eslint-disable-next-line @nx/enforce-module-boundaries
import '../../../libs/shared/testing/src/jest/register-path-aliases';

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Wallet } from 'ethers';

import { launchPlatform, loadRunnerConfig, PlatformHandle } from '@onramp/platform-runner';

import { ChaosControl, startChaosControl } from './chaos-control.server';

declare global {
  var __ONRAMP_CHAOS__: { platform: PlatformHandle; control: ChaosControl; startedAt: number } | undefined;
}

// Every app as its own process against real Postgres, Kafka and anvil, ports moved by
// CHAOS_PORT_OFFSET (else E2E_PORT_OFFSET, else 2000) so a running `npm start` or e2e run can stay up.
// Timeouts and retry delays are short so faults heal within the suite's time.
export default async function globalSetup(): Promise<void> {
  process.env.TZ = 'UTC';
  const startedAt = Date.now();
  const logDir = join(mkdtempSync(join(tmpdir(), 'onramp-chaos-')), 'logs');
  const platform = await launchPlatform({
    config: loadRunnerConfig(process.env),
    logDir,
    portOffset: Number(process.env.CHAOS_PORT_OFFSET ?? process.env.E2E_PORT_OFFSET ?? 2000),
    env: {
      LOG_LEVEL: 'info',
      WEBHOOK_RETRY_BASE_MS: '300',
      WEBHOOK_RETRY_MAX_MS: '2000',
      KAFKA_SESSION_TIMEOUT_MS: '6000', // a SIGKILLed consumer's partitions move on after 6 s, not 30
    },
  });
  const control = await startChaosControl(platform).catch(async (err: unknown) => {
    await platform.stop();
    throw err;
  });
  globalThis.__ONRAMP_CHAOS__ = { platform, control, startedAt };
  process.stderr.write(`\n[chaos] platform up in ${Date.now() - startedAt} ms; logs in ${logDir}\n`);
  Object.assign(process.env, {
    CHAOS_CONTROL_URL: control.url,
    CHAOS_BASE_URL: platform.urls.base,
    CHAOS_KYC_URL: platform.urls.kyc,
    CHAOS_ADMIN_URL: platform.urls.admin,
    CHAOS_ADMIN_API_KEY: platform.secrets.ADMIN_API_KEY,
    CHAOS_DATABASE_URL: platform.env.DATABASE_URL,
    CHAOS_KAFKA_BROKERS: platform.env.KAFKA_BROKERS,
    CHAOS_RPC_URL: platform.urls.rpc,
    CHAOS_USDC_ADDRESS: platform.env.USDC_ADDRESS,
    CHAOS_USDC_OWNER_KEY: platform.env.USDC_OWNER_KEY,
    CHAOS_SIGNER_ADDRESS: new Wallet(platform.env.SETTLEMENT_SIGNER_KEY).address,
    CHAOS_SETTLEMENT_URL: `http://127.0.0.1:${platform.ports.chainSettlement}`,
    CHAOS_LOG_DIR: logDir,
  });
}
