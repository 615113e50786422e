// `npm run reconcile [-- --json] [--merchant <uuid> ...] [--from-block <n>] [--hot-wallet <address> ...]`
//
// Operator tool: compares the books with the chain and reports every way money may not have moved
// exactly once. It reads two services' schemas directly (orders.orders, settlement.settlements,
// settlement.signers), read-only in one snapshot; services themselves never read each other's tables.
// Env: DATABASE_URL, RPC_URL, USDC_ADDRESS. Exit 0: books and chain agree; 1: a mismatch; 2: an error.
import { parseArgs } from 'node:util';

import { ConfigError, loadEnv, str } from '@onramp/config';
import { formatReconcileReport, reconcile } from '@onramp/ops';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      merchant: { type: 'string', multiple: true },
      'from-block': { type: 'string' },
      'hot-wallet': { type: 'string', multiple: true },
    },
  });
  const env = loadEnv({ DATABASE_URL: str(), RPC_URL: str(), USDC_ADDRESS: str() });
  const fromBlock = values['from-block'] === undefined ? undefined : Number(values['from-block']);
  if (fromBlock !== undefined && !(Number.isInteger(fromBlock) && fromBlock >= 0))
    throw new ConfigError('--from-block must be a block number');
  const report = await reconcile({
    databaseUrl: env.DATABASE_URL,
    rpcUrl: env.RPC_URL,
    usdcAddress: env.USDC_ADDRESS,
    merchantIds: values.merchant,
    fromBlock,
    hotWallets: values['hot-wallet'],
  });
  process.stdout.write(
    values.json
      ? `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`
      : formatReconcileReport(report),
  );
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`reconcile: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
