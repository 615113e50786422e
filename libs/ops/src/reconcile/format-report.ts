import { ReconcileReport } from './reconcile';

// The operator's view: figures first, then one line per mismatch.
export function formatReconcileReport(r: ReconcileReport): string {
  const f = r.figures;
  const lines = [
    `reconciliation ${r.ok ? 'OK' : 'FAILED'} at ${r.checkedAt}: chain ${r.chainId}, blocks ${r.fromBlock}..${r.toBlock}, USDC ${r.usdcAddress}`,
    `  hot wallets        ${r.hotWallets.join(', ') || '(none recorded)'}`,
    `  orders             ${f.orders} (completed ${f.completed}, failed ${f.failed}, non-terminal ${f.nonTerminal})`,
    `  settlements        ${f.settlements} (in flight ${f.settlementsInFlight})`,
    `  transfers on chain ${f.transfersOnChain} (duplicates ${f.duplicates}, missing ${f.missing})`,
    `  bank credits       ${r.bank.credits}: ${r.bank.received} EUR received = ${r.bank.paid} paid + ${r.bank.inSuspense} in suspense + ${r.bank.returning} returning + ${r.bank.returned} returned + ${r.bank.reversed} reversed + ${r.bank.waiting} waiting`,
    `  mismatches         ${f.mismatches}`,
    ...r.mismatches.map((m) => `  - ${m.kind}${m.orderUuid ? ` order ${m.orderUuid}` : ''}: ${m.detail}`),
  ];
  return `${lines.join('\n')}\n`;
}
