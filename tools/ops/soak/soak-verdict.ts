import { reconcile, ReconcileReport, replayDeadLetters } from '@onramp/ops';

import { PlacedOrder } from './order-driver';
import { bookedOrders } from './soak-ledger';
import { auditWebhooks, WebhookAudit } from './webhook-audit';

export interface SoakVerdict {
  report: ReconcileReport;
  webhooks: WebhookAudit;
  deadLetters: number;
  problems: string[]; // empty: every invariant held
}

// The soak's invariants, checked once nothing is in flight: the books agree with the chain (each
// COMPLETED order paid exactly once, to its recipient, the right amount, and nothing else paid),
// each order terminal with its one webhook event, nothing of the soak parked on a dead-letter topic.
export async function judgeSoak(
  env: { databaseUrl: string; rpcUrl: string; usdcAddress: string; kafkaBrokers: string[] },
  placed: PlacedOrder[],
): Promise<SoakVerdict> {
  const merchantIds = [...new Set(placed.map((o) => o.merchant.merchantId))];
  const report = await reconcile({
    databaseUrl: env.databaseUrl,
    rpcUrl: env.rpcUrl,
    usdcAddress: env.usdcAddress,
    merchantIds,
  });
  const problems = report.mismatches.map((m) => `reconcile: ${m.kind} ${m.orderUuid ?? ''} ${m.detail}`);
  const f = report.figures;
  if (f.transfersOnChain !== f.completed)
    problems.push(`${f.transfersOnChain} transfers on chain for ${f.completed} COMPLETED orders`);
  if (f.orders !== placed.length)
    problems.push(`the books hold ${f.orders} orders, the soak placed ${placed.length}`);

  const webhooks = auditWebhooks(placed, await bookedOrders(env.databaseUrl, merchantIds));
  problems.push(...webhooks.problems);

  const uuids = new Set(placed.map((o) => o.uuid));
  // a dry run reads every dead letter (this group never commits) and publishes nothing
  const parked = (
    await replayDeadLetters({ brokers: env.kafkaBrokers, dryRun: true, groupId: 'onramp-soak-dlq-audit' })
  ).records.filter((r) => uuids.has(r.key));
  for (const r of parked)
    problems.push(`dead letter: ${r.sourceTopic} of order ${r.key} (${r.consumer}): ${r.error}`);
  return { report, webhooks, deadLetters: parked.length, problems };
}
