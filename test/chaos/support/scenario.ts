import { waitFor } from '@onramp/testing';

import { ChaosMerchant } from './chaos-merchant';
import { ScenarioMerchant } from './invariants';
import { waitForTerminalOrders } from './ledger-probe';
import { ProgrammableReceiver } from './programmable-receiver';

// A merchant of its own per scenario (so figures and reconciliation are scoped to it), with a
// webhook endpoint on loopback.
export async function openMerchant(name: string): Promise<ScenarioMerchant> {
  const receiver = new ProgrammableReceiver();
  const merchant = await ChaosMerchant.create(name, await receiver.start());
  return { merchant, receiver, orderUuids: [] };
}

export async function closeMerchants(merchants: ScenarioMerchant[]): Promise<void> {
  await Promise.all(merchants.map((m) => m.receiver.stop()));
}

// Every order terminal, then every terminal order's webhook taken by its endpoint.
export async function waitForSettled(merchants: ScenarioMerchant[], timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await waitForTerminalOrders(
    merchants.flatMap((m) => m.orderUuids),
    timeoutMs,
  );
  await waitFor(
    () =>
      merchants.every(
        (m) =>
          m.webhooks === false ||
          m.orderUuids.every((uuid) => m.receiver.accepted().some((d) => d.orderUuid === uuid)),
      ),
    {
      timeoutMs: Math.max(deadline - Date.now(), 30_000),
      intervalMs: 250,
      description: 'every webhook delivered',
    },
  );
}
