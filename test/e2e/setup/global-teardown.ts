import { E2E_PII } from '../support/api-client';
import { scanLogs } from './log-secret-scan';

export default async function globalTeardown(): Promise<void> {
  const platform = globalThis.__ONRAMP_E2E__;
  await platform?.stop();
  const logDir = process.env.E2E_LOG_DIR;
  if (!platform || !logDir) return;
  // The demo merchant id is an identifier, not a secret: it may be logged.
  const { DEMO_MERCHANT_ID: _id, ...secrets } = platform.secrets;
  const findings = scanLogs(logDir, { ...(secrets as unknown as Record<string, string>), ...E2E_PII });
  if (findings.length > 0) {
    throw new Error(
      `secrets or PII in the platform logs (${logDir}): ${findings.map((f) => `${f.what} in ${f.file}`).join('; ')}`,
    );
  }
  process.stderr.write(`[e2e] log scan: no secret, token, IBAN or name of the run in ${logDir}\n`);
}
