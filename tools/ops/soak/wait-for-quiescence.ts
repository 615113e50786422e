import { PlacedOrder } from './order-driver';
import { InFlight, inFlight } from './soak-ledger';

export interface Quiescence {
  reached: boolean;
  ms: number;
  last?: InFlight & { webhooksMissing: number };
}

const POLL_MS = 1000;
const GRACE_MS = 5000; // after the last webhook, time for a straggling redelivery to be counted

// Waits until nothing of the soak is in flight: no open order, no settlement between signing and
// receipt, no webhook delivery pending, and every order's webhook taken by its endpoint.
export async function waitForQuiescence(
  databaseUrl: string,
  placed: PlacedOrder[],
  timeoutMs: number,
  log: (line: string) => void,
): Promise<Quiescence> {
  const t0 = Date.now();
  const merchants = [...new Set(placed.map((o) => o.merchant))];
  const merchantIds = merchants.map((m) => m.merchantId);
  let last: Quiescence['last'];
  let lastLogged = 0;
  while (Date.now() - t0 < timeoutMs) {
    const delivered = new Set(merchants.flatMap((m) => m.receiver.accepted().map((d) => d.orderUuid)));
    try {
      last = {
        ...(await inFlight(databaseUrl, merchantIds)),
        webhooksMissing: placed.filter((o) => !delivered.has(o.uuid)).length,
      };
      if (last.openOrders + last.settlementsInFlight + last.pendingWebhooks + last.webhooksMissing === 0) {
        await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
        return { reached: true, ms: Date.now() - t0, last };
      }
    } catch (err) {
      log(`quiescence probe failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (last && Date.now() - lastLogged >= 10_000) {
      lastLogged = Date.now();
      log(
        `settling: ${last.openOrders} open orders, ${last.settlementsInFlight} settlements in flight, ` +
          `${last.pendingWebhooks} webhooks pending, ${last.webhooksMissing} not yet received`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { reached: false, ms: Date.now() - t0, last };
}
