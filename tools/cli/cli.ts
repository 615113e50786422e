import { ApiError, CliError, ExitCode, UsageError } from './cli-errors';
import { CommandName } from './command-table';
import { CommandHandler, Output } from './commands/command-context';
import { listDeliveries, redeliver } from './commands/deliveries.commands';
import { createMerchant, listMerchants, rotateMerchantSecret } from './commands/merchants.commands';
import { decideKyc, eraseKyc } from './commands/kyc.commands';
import { getOrder, listOrders } from './commands/orders.commands';
import { assignCredit, listSuspense, paymentPolicy, returnCredit } from './commands/payments.commands';
import { listAudit } from './commands/audit.commands';
import { listOperators, newOperator, revokeOperator } from './commands/operators.commands';
import { sandboxCredit } from './commands/sandbox.commands';
import { listHeldSettlements, releaseSettlement } from './commands/settlements.commands';
import { parseCommandLine } from './parse-command-line';

const HANDLERS: Record<CommandName, CommandHandler> = {
  'merchants create': createMerchant,
  'merchants list': listMerchants,
  'merchants rotate-secret': rotateMerchantSecret,
  'deliveries list': listDeliveries,
  'deliveries redeliver': redeliver,
  'orders get': getOrder,
  'orders list': listOrders,
  'kyc decide': decideKyc,
  'kyc erase': eraseKyc,
  'payments suspense': listSuspense,
  'payments assign': assignCredit,
  'payments return': returnCredit,
  'payments policy': paymentPolicy,
  'settlements held': listHeldSettlements,
  'settlements release': releaseSettlement,
  'sandbox credit': sandboxCredit,
  'operators new': newOperator,
  'operators list': listOperators,
  'operators revoke': revokeOperator,
  'audit list': listAudit,
};

export function describeError(err: CliError): string {
  if (err instanceof UsageError) return `onramp: ${err.message}\n${err.usage ? `\n${err.usage}` : ''}`;
  if (err instanceof ApiError) {
    const { problem } = err;
    const title = problem.title ?? 'Error';
    const lines = [
      `onramp: ${err.status} ${title}${problem.detail && problem.detail !== title ? `: ${problem.detail}` : ''}`,
    ];
    for (const e of problem.errors ?? []) lines.push(`  ${e.field}: ${e.message}`);
    if (err.hint) lines.push(`hint: ${err.hint}`);
    return `${lines.join('\n')}\n`;
  }
  return `onramp: ${err.message}\n`;
}

// The whole CLI as a function of its inputs; main.ts only wires it to the process.
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, out: Output): Promise<ExitCode> {
  try {
    const parsed = parseCommandLine(argv, env);
    if (parsed.kind === 'help') {
      out.stdout(parsed.text);
      return ExitCode.Ok;
    }
    await HANDLERS[parsed.command.name]({ ...parsed, out });
    return ExitCode.Ok;
  } catch (err) {
    if (err instanceof CliError) {
      out.stderr(describeError(err));
      return err.exitCode;
    }
    out.stderr(`onramp: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    return ExitCode.Api;
  }
}
