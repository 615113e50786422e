import { waitFor } from '@onramp/testing';

import { expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { countBy, settlementStates } from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { placeOrders, useScenario, waitForSettled } from './support/scenario';

const OUTAGE_MS = 30_000;

// The only Kafka broker goes away for 30 s mid-flow, while the merchant keeps placing and paying
// orders (the HTTP side only writes to Postgres: outboxes hold the events). Nothing may be lost.
describe('f. the Kafka broker stopped for 30 s mid-flow', () => {
  const scenario = useScenario('Chaos F broker outage');

  it('settles every order once the broker is back', async () => {
    const { m, fromBlock } = scenario;
    const before = await placeOrders(m, 6, 60);
    for (const order of before) await m.merchant.pay(order);
    // a payout confirmed, its transfer.succeeded on its way to orders, when the broker goes
    await waitFor(async () => [...(await settlementStates(m.orderUuids)).values()].includes('CONFIRMED'), {
      timeoutMs: 90_000,
      intervalMs: 50,
      description: 'the flow under way',
    });
    const atStop = countBy(await settlementStates(m.orderUuids));
    const stoppedAt = Date.now();
    await platformControl.stopServer('kafka');

    const during = await m.merchant.createOrders(4, 70);
    m.orderUuids.push(...during.map((o) => o.uuid));
    for (const order of during) await m.merchant.pay(order);
    // the outage itself: a fault window, not a wait for a result
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt))));
    await platformControl.startServer('kafka');
    const restartedAt = Date.now();
    process.stderr.write(
      `\n[chaos] f. broker down ${Math.round((restartedAt - stoppedAt) / 1000)} s; settlements at stop: ${JSON.stringify(atStop)}\n`,
    );

    await waitForSettled([m], 240_000);
    process.stderr.write(
      `[chaos] f. all settled ${Math.round((Date.now() - restartedAt) / 1000)} s after the broker came back\n`,
    );
    const verdict = await verifyScenario('f. Kafka broker down 30 s', [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, 10);
  });
});
