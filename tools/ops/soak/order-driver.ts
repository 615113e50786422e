import { RetryStats, withRetries } from './retry-call';
import { SeededRandom } from './seeded-random';
import { SoakMerchant } from './soak-merchant';

export type CreditStatus = 'BOOKED' | 'REJECTED';

export interface PlannedOrder {
  index: number;
  merchant: SoakMerchant;
  amount: number; // EUR, 2 decimals
  recipient: string;
  credit: CreditStatus; // BOOKED should end COMPLETED, REJECTED FAILED
}

export interface PlacedOrder extends PlannedOrder {
  uuid: string;
  reference: string;
  latencyMs?: number; // create until its webhook arrived; undefined: not within the order timeout
}

export interface DriveResult {
  placed: PlacedOrder[];
  errors: string[]; // orders whose create or credit failed for good
  retries: number;
}

export interface DriveOptions {
  concurrency: number;
  runId: string; // part of each Idempotency-Key
  orderTimeoutMs: number; // how long a slot waits for an order's webhook before it moves on
  onFinished?: (finished: number) => void; // an order's slot freed (webhook in, timed out, or failed)
}

const WEBHOOK_POLL_MS = 100;

// The whole run is drawn up front from the seed, so it does not depend on timing or concurrency.
export function planOrders(
  count: number,
  merchants: SoakMerchant[],
  rejectRatio: number,
  rng: SeededRandom,
): PlannedOrder[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    merchant: merchants[index % merchants.length],
    amount: rng.int(500, 30_000) / 100,
    recipient: rng.address(),
    credit: rng.next() < rejectRatio ? 'REJECTED' : 'BOOKED',
  }));
}

// Each order: create it (Idempotency-Key, so a retried create never makes a second order), pay it
// through the sandbox bank, then wait for its webhook. At most `concurrency` orders in flight, an
// order being in flight until its merchant has heard how it ended, so the kills land on every stage.
export async function driveOrders(plan: PlannedOrder[], opts: DriveOptions): Promise<DriveResult> {
  const stats: RetryStats = { retries: 0 };
  const placed: PlacedOrder[] = [];
  const errors: string[] = [];
  let next = 0;
  let finished = 0;
  const worker = async (): Promise<void> => {
    while (next < plan.length) {
      const order = plan[next++];
      try {
        const started = Date.now();
        const done = await placeOrder(order, opts.runId, stats);
        placed.push(done);
        if (await webhookArrives(done, opts.orderTimeoutMs)) done.latencyMs = Date.now() - started;
      } catch (err) {
        errors.push(`order #${order.index}: ${err instanceof Error ? err.message : String(err)}`);
      }
      opts.onFinished?.(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, plan.length) }, () => worker()));
  return { placed, errors, retries: stats.retries };
}

async function placeOrder(order: PlannedOrder, runId: string, stats: RetryStats): Promise<PlacedOrder> {
  const { client, kycUserUuid } = order.merchant;
  const created = await withRetries(
    () =>
      client.createOrder(
        { amount: order.amount, currency: 'EUR', recepientAddress: order.recipient, kycUserUuid },
        { idempotencyKey: `soak-${runId}-${order.index}` },
      ),
    stats,
  );
  await withRetries(
    () =>
      client.sandboxCredit({
        reference: created.reference,
        amount: order.amount,
        currency: 'EUR',
        payerName: 'Ada Lovelace',
        status: order.credit,
      }),
    stats,
  );
  return { ...order, uuid: created.uuid, reference: created.reference };
}

async function webhookArrives(order: PlacedOrder, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!order.merchant.webhooks.has(order.uuid)) {
    if (Date.now() >= deadline) return false; // the verdict will tell whether it ever came
    await new Promise((resolve) => setTimeout(resolve, WEBHOOK_POLL_MS));
  }
  return true;
}
