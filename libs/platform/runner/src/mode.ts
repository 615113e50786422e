// Which mode the local platform runs in: ONRAMP_MODE from the launch options or the launching
// environment, sandbox by default. Production mode locally is production behaviour on local servers: no sandbox
// bank, KYC decided by an operator, development keys refused, real collection account details.
export type OnrampMode = 'sandbox' | 'production';

export function launchMode(extra: Record<string, string> | undefined, env: NodeJS.ProcessEnv): OnrampMode {
  const raw = extra?.ONRAMP_MODE ?? env.ONRAMP_MODE ?? 'sandbox';
  if (raw === '' || raw === 'sandbox') return 'sandbox';
  if (raw === 'production') return 'production';
  throw new Error(`ONRAMP_MODE must be sandbox or production, got "${raw}"`);
}

// What production mode needs from the operator, said before any server starts (the apps would
// refuse to boot anyway, one by one, after a minute of starting infrastructure).
export function productionLaunchProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (!env.COLLECTION_IBAN)
    problems.push('COLLECTION_IBAN (the account end users pay into) is required with ONRAMP_MODE=production');
  if (!env.COLLECTION_BIC) problems.push('COLLECTION_BIC is required with ONRAMP_MODE=production');
  return problems;
}
