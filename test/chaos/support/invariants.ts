import { reconcile, ReconcileReport, replayDeadLetters } from '@onramp/ops';

import { chaosEnv } from './chaos-env';
import { ChaosMerchant } from './chaos-merchant';
import { orderStatuses } from './ledger-probe';
import { ProgrammableReceiver } from './programmable-receiver';

export interface ScenarioMerchant {
  merchant: ChaosMerchant;
  receiver: ProgrammableReceiver;
  orderUuids: string[];
  webhooks?: boolean; // false: this merchant's endpoint is expected not to take them (e.g. disabled)
}

export interface ScenarioFigures {
  orders: number;
  completed: number;
  failed: number;
  transfersOnChain: number;
  duplicateTransfers: number;
  webhooksDelivered: number;
  webhookRedeliveries: number; // same X-Webhook-Id taken again: allowed (at-least-once), counted
  lost: number; // orders never terminal + terminal orders whose webhook never arrived
  deadLetters: number; // events of these orders parked on a dead-letter topic
}

export interface ScenarioVerdict {
  figures: ScenarioFigures;
  problems: string[];
  report: ReconcileReport;
}

const TERMINAL_EVENT: Record<string, string> = { COMPLETED: 'order.completed', FAILED: 'order.failed' };

// The two invariants after any fault: the books agree with the chain (each COMPLETED order paid
// exactly once, to its recipient, the right amount; nothing else paid), and each terminal order's
// webhook was taken by the merchant exactly as one event (one X-Webhook-Id, the right event type),
// none for an order still open. Prints the scenario's figures.
export async function verifyScenario(
  scenario: string,
  merchants: ScenarioMerchant[],
  fromBlock: number,
): Promise<ScenarioVerdict> {
  const report = await reconcile({
    databaseUrl: chaosEnv.databaseUrl(),
    rpcUrl: chaosEnv.rpcUrl(),
    usdcAddress: chaosEnv.usdcAddress(),
    merchantIds: merchants.map((m) => m.merchant.merchantId),
    fromBlock,
  });
  const problems = report.mismatches.map((m) => `reconcile: ${m.kind} ${m.orderUuid ?? ''} ${m.detail}`);
  let lost = 0;
  let delivered = 0;
  let redeliveries = 0;
  for (const m of merchants) {
    const statuses = await orderStatuses(m.orderUuids);
    const accepted = m.receiver.accepted();
    for (const uuid of m.orderUuids) {
      const status = statuses.get(uuid) ?? 'MISSING';
      const mine = accepted.filter((d) => d.orderUuid === uuid);
      const ids = new Set(mine.map((d) => d.webhookId));
      redeliveries += mine.length - ids.size;
      if (!TERMINAL_EVENT[status]) {
        lost++;
        problems.push(`order ${uuid} is ${status}, not terminal`);
        if (mine.length > 0) problems.push(`order ${uuid} is ${status} but a webhook was delivered`);
        continue;
      }
      if (m.webhooks === false) continue;
      if (ids.size === 0) {
        lost++;
        problems.push(`order ${uuid} is ${status} but its webhook never arrived`);
        continue;
      }
      delivered++;
      if (ids.size > 1)
        problems.push(`order ${uuid}: ${ids.size} different webhook events (${[...ids].join(', ')})`);
      const wrong = mine.filter((d) => d.event !== TERMINAL_EVENT[status] || d.status !== status);
      if (wrong.length > 0)
        problems.push(`order ${uuid} is ${status} but got ${wrong[0].event}/${wrong[0].status}`);
    }
  }
  const orderUuids = new Set(merchants.flatMap((m) => m.orderUuids));
  // a dry run reads every dead letter (this group never commits) and publishes nothing
  const parked = (
    await replayDeadLetters({
      brokers: chaosEnv.kafkaBrokers(),
      dryRun: true,
      groupId: 'onramp-chaos-dlq-audit',
    })
  ).records.filter((r) => orderUuids.has(r.key));
  for (const r of parked)
    problems.push(`dead letter: ${r.sourceTopic} of order ${r.key} (${r.consumer}): ${r.error}`);
  const f = report.figures;
  const figures: ScenarioFigures = {
    orders: f.orders,
    completed: f.completed,
    failed: f.failed,
    transfersOnChain: f.transfersOnChain,
    duplicateTransfers: f.duplicates,
    webhooksDelivered: delivered,
    webhookRedeliveries: redeliveries,
    lost,
    deadLetters: parked.length,
  };
  process.stderr.write(
    `\n[chaos] ${scenario}: orders ${figures.orders}, completed ${figures.completed}, failed ${figures.failed}, ` +
      `transfers on chain ${figures.transfersOnChain}, duplicates ${figures.duplicateTransfers} ` +
      `(webhook redeliveries ${figures.webhookRedeliveries}), webhooks ${figures.webhooksDelivered}, ` +
      `lost ${figures.lost}, dead letters ${figures.deadLetters}, mismatches ${f.mismatches}${problems.length ? `\n  ${problems.join('\n  ')}` : ''}\n`,
  );
  return { figures, problems, report };
}

// What a scenario asserts of its verdict: no problem; every order terminal, the `failed` ones (a reverted
// payout) without a transfer and every other one completed and paid once on chain; none lost.
export function expectEveryOrderPaidOnce(verdict: ScenarioVerdict, orders: number, failed = 0): void {
  expect(verdict.problems).toEqual([]);
  expect(verdict.figures).toMatchObject({
    orders,
    completed: orders - failed,
    failed,
    transfersOnChain: orders - failed,
    duplicateTransfers: 0,
    lost: 0,
  });
}
