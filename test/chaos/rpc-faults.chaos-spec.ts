import { setTimeout as sleep } from 'node:timers/promises';

import { RpcFault, RpcFaultProxy, startRpcFaultProxy, waitFor } from '@onramp/testing';

import { chaosEnv } from './support/chaos-env';
import { ScenarioMerchant, expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import {
  chainHead,
  countBy,
  duplicateEffects,
  settlementRows,
  settlementStates,
} from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { closeMerchants, openMerchant, placeOrders, waitForSettled } from './support/scenario';

const RPC_TIMEOUT_MS = 500;
const FAULT_MS = 3000;
// rate: the share of JSON-RPC requests the fault meets (the rest get through, so work moves and
// sends meet faults too); methods: only requests carrying these calls.
const PHASES: Array<{ fault: RpcFault; rate: number; methods?: string[]; orders: number }> = [
  { fault: 'unavailable', rate: 0.5, orders: 4 }, // HTTP 503, nothing forwarded
  { fault: 'drop', rate: 0.5, orders: 3 }, // connection cut, nothing forwarded
  // every send answered 3 x RPC_TIMEOUT_MS late: the transfer lands after the worker gave up on it
  { fault: 'slow', rate: 1, methods: ['eth_sendRawTransaction'], orders: 3 },
];
const ORDERS = PHASES.reduce((n, p) => n + p.orders, 0);

// chain-settlement reaches anvil through a proxy that, one fault after another, answers 503, cuts
// connections and stalls past RPC_TIMEOUT_MS for a while as orders are paid, healing after each. A
// call whose outcome is unknown (a send that timed out) must never become a second payout.
describe('h. RPC node answering 5xx, dropping connections and stalling, then healing', () => {
  let m: ScenarioMerchant;
  let fromBlock: number;
  let proxy: RpcFaultProxy;

  beforeAll(async () => {
    fromBlock = await chainHead();
    m = await openMerchant('Chaos H RPC faults');
    proxy = await startRpcFaultProxy(chaosEnv.rpcUrl());
    proxy.delayMs = 3 * RPC_TIMEOUT_MS;
    await platformControl.restart('chain-settlement', {
      RPC_URL: proxy.url,
      RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
      SETTLEMENT_POLL_MS: '100', // retries back off from 100 ms, so healing shows within seconds
    });
  });
  afterAll(async () => {
    if (proxy) proxy.fault = 'pass';
    await platformControl.restart('chain-settlement'); // back on the node directly, default settings
    await proxy?.close();
    await closeMerchants([m]);
  });

  it(`completes all ${ORDERS} orders exactly once after the node heals`, async () => {
    const orders = await placeOrders(m, ORDERS, 70);
    const during: string[] = [];
    const healSeconds: string[] = [];
    let next = 0;
    for (const phase of PHASES) {
      const batch = orders.slice(next, next + phase.orders).map((o) => o.uuid);
      next += phase.orders;
      Object.assign(proxy, { fault: phase.fault, rate: phase.rate, methods: phase.methods });
      for (const order of orders.filter((o) => batch.includes(o.uuid))) await m.merchant.pay(order);
      await sleep(FAULT_MS);
      during.push(`${phase.fault} ${JSON.stringify(countBy(await settlementStates(batch)))}`);
      Object.assign(proxy, { fault: 'pass', rate: 1, methods: undefined });
      const healedAt = Date.now();
      await waitFor(
        async () => {
          const states = await settlementStates(batch);
          return batch.every((u) => states.get(u) === 'CONFIRMED');
        },
        { timeoutMs: 60_000, intervalMs: 100, description: `${phase.fault}: batch CONFIRMED after healing` },
      );
      healSeconds.push(((Date.now() - healedAt) / 1000).toFixed(1));
    }

    await waitForSettled([m]);
    const injected = Object.entries(proxy.injected)
      .map(([fault, n]) => `${fault} ${n.requests} (${n.sends} with a send)`)
      .join(', ');
    const rows = await settlementRows(m.orderUuids);
    const transactions = rows.reduce((n, r) => n + r.transactions, 0);
    process.stderr.write(
      `\n[chaos] h. each batch when its fault ended: ${during.join(' | ')}; confirmed ${healSeconds.join(' / ')} s after healing\n` +
        `[chaos] h. faulted requests: ${injected}; ` +
        `${transactions} transactions signed for ${rows.length} settlements\n`,
    );

    for (const phase of PHASES) expect(proxy.injected[phase.fault]?.requests ?? 0).toBeGreaterThan(0);
    expect(proxy.injected.slow?.sends ?? 0).toBeGreaterThan(0); // sends whose outcome the worker did not learn
    expect(await duplicateEffects()).toEqual({
      orderEvents: 0,
      transferEvents: 0,
      paymentEvents: 0,
      webhookDeliveries: 0,
    });
    const verdict = await verifyScenario('h. RPC 503 / dropped / stalled, then healed', [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, ORDERS);
  });
});
