// `npm run settlement-holds -- list [--json]`
// `npm run settlement-holds -- release <order uuid> --operator <name>`
//
// Operator tool: settlements HELD over a payout cap (SETTLEMENT_MAX_PER_TRANSFER_USDC,
// SETTLEMENT_MAX_PER_DAY_USDC). `release` lets one pass its caps: back to PENDING, signed by the next
// pass of chain-settlement; recorded in settlement.admin_audit with the operator's name.
// Env: DATABASE_URL (a role that may update the settlement schema). Exit 0: done; 1: nothing to
// release (not HELD); 2: an error.
import { parseArgs } from 'node:util';

import { ConfigError, loadEnv, str } from '@onramp/config';
import { listHeldSettlements, releaseHeldSettlement } from '@onramp/ops';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { operator: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const { DATABASE_URL } = loadEnv({ DATABASE_URL: str() });
  const [command, orderUuid] = positionals;
  if (command === 'list') {
    const held = await listHeldSettlements(DATABASE_URL);
    if (values.json) process.stdout.write(`${JSON.stringify(held, null, 2)}\n`);
    else if (held.length === 0) process.stdout.write('[settlement-holds] no settlement is held\n');
    else
      for (const h of held)
        process.stdout.write(
          `${h.orderUuid}  ${h.tokenAmount ?? '?'} USDC  since ${h.heldSince}  ${h.reason ?? ''}\n`,
        );
    return 0;
  }
  if (command === 'release') {
    if (!orderUuid || !UUID_RE.test(orderUuid)) throw new ConfigError('release: give the order uuid');
    const operator = values.operator?.trim();
    if (!operator) throw new ConfigError('release: --operator <name> is required (it goes to the audit log)');
    const outcome = await releaseHeldSettlement({ databaseUrl: DATABASE_URL, orderUuid, operator });
    if (outcome.kind === 'not-held') {
      process.stderr.write(
        `[settlement-holds] ${orderUuid} is not HELD (${outcome.state ?? 'no settlement'})\n`,
      );
      return 1;
    }
    process.stdout.write(
      `[settlement-holds] ${orderUuid} released by ${operator}: signed by the next pass\n`,
    );
    return 0;
  }
  throw new ConfigError('usage: settlement-holds list [--json] | release <order uuid> --operator <name>');
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`[settlement-holds] ${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
