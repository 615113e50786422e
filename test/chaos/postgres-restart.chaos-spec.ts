import { waitFor } from '@onramp/testing';

import { expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { countBy, settlementStates } from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { placeOrders, useScenario, waitForSettled } from './support/scenario';

const DOWN_MS = 10_000;

// The database every service shares is restarted (fast shutdown: every connection cut) while
// payouts are in flight. Services must reconnect and carry on; nothing may be lost or paid twice.
describe('g. Postgres restarted mid-flow', () => {
  const scenario = useScenario('Chaos G postgres restart');

  it('settles every order once the database is back', async () => {
    const { m, fromBlock } = scenario;
    const orders = await placeOrders(m, 10, 80);
    for (const order of orders.slice(0, 6)) await m.merchant.pay(order);
    // payouts being signed and broadcast when the database goes
    await waitFor(
      async () => [...(await settlementStates(m.orderUuids)).values()].some((s) => s !== 'PENDING'),
      {
        timeoutMs: 90_000,
        intervalMs: 50,
        description: 'the flow under way',
      },
    );
    const atStop = countBy(await settlementStates(m.orderUuids));
    await platformControl.stopServer('postgres');
    // the outage itself: a fault window, not a wait for a result
    await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
    await platformControl.startServer('postgres');
    const restartedAt = Date.now();
    for (const order of orders.slice(6)) {
      // the first requests after the restart may still meet a broken pooled connection
      await waitFor(() => m.merchant.pay(order).then(() => true), {
        timeoutMs: 30_000,
        description: 'payment accepted',
      });
    }

    await waitForSettled([m], 180_000);
    process.stderr.write(`\n[chaos] g. settlements when Postgres stopped: ${JSON.stringify(atStop)}`);
    process.stderr.write(
      `\n[chaos] g. all settled ${Math.round((Date.now() - restartedAt) / 1000)} s after Postgres came back\n`,
    );
    const verdict = await verifyScenario('g. Postgres restarted', [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, 10);
  });
});
