// eslint-disable-next-line @nx/enforce-module-boundaries
import '../../../libs/shared/testing/src/jest/register-path-aliases';

import { formatReconcileReport, reconcile } from '@onramp/ops';

// The books of the whole run against the whole chain, then everything stops. A mismatch here
// (outside any scenario's scope) fails the run.
export default async function globalTeardown(): Promise<void> {
  const chaos = globalThis.__ONRAMP_CHAOS__;
  if (!chaos) return;
  delete globalThis.__ONRAMP_CHAOS__;
  const { platform, control, startedAt } = chaos;
  try {
    const report = await reconcile({
      databaseUrl: platform.env.DATABASE_URL,
      rpcUrl: platform.urls.rpc,
      usdcAddress: platform.env.USDC_ADDRESS,
    });
    process.stderr.write(
      `\n[chaos] whole run, ${Math.round((Date.now() - startedAt) / 1000)} s:\n${formatReconcileReport(report)}`,
    );
    if (!report.ok)
      throw new Error(`reconciliation of the whole chaos run found ${report.mismatches.length} mismatch(es)`);
  } finally {
    await control.close();
    await platform.stop();
  }
}
