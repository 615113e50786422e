import { waitFor } from '@onramp/testing';

import { ChaosMerchant, PlacedOrder } from './chaos-merchant';
import { ScenarioMerchant } from './invariants';
import { chainHead, waitForTerminalOrders } from './ledger-probe';
import { ProgrammableReceiver } from './programmable-receiver';

// A merchant of its own per scenario (so figures and reconciliation are scoped to it), with a
// webhook endpoint on loopback.
export async function openMerchant(name: string): Promise<ScenarioMerchant> {
  const receiver = new ProgrammableReceiver();
  const merchant = await ChaosMerchant.create(name, await receiver.start());
  return { merchant, receiver, orderUuids: [] };
}

// The scenario's orders, placed for its merchant and recorded as the ones its verdict covers.
export async function placeOrders(m: ScenarioMerchant, count: number, firstAmount: number): Promise<PlacedOrder[]> {
  const orders = await m.merchant.createOrders(count, firstAmount);
  m.orderUuids = orders.map((o) => o.uuid);
  return orders;
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

export interface Scenario {
  m: ScenarioMerchant;
  /** The chain head before the scenario began: its on-chain evidence is read from here. */
  fromBlock: number;
}

// The describe of a scenario with one merchant: the chain head taken and the merchant opened before
// it, the merchant's receiver stopped after. The holder is filled once beforeAll ran.
export function useScenario(name: string): Scenario {
  const scenario = {} as Scenario;
  beforeAll(async () => {
    scenario.fromBlock = await chainHead();
    scenario.m = await openMerchant(name);
  });
  afterAll(() => closeMerchants([scenario.m]));
  return scenario;
}
