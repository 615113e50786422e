import { waitFor } from '@onramp/testing';

import { expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { countBy, orderStatuses, settlementStates } from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { placeOrders, useScenario, waitForSettled } from './support/scenario';

// Orders dies the moment the first transfer.succeeded exists, and stays dead while more payouts
// confirm: their events wait in Kafka. On restart every order completes once, with one webhook.
describe('b. orders SIGKILLed while transfer.succeeded events flow', () => {
  const scenario = useScenario('Chaos B orders crash');

  it('completes every order exactly once after the restart', async () => {
    const { m, fromBlock } = scenario;
    const orders = await placeOrders(m, 15, 20);
    const [first, later] = [orders.slice(0, 10), orders.slice(10)];
    for (const order of first) await m.merchant.pay(order);
    await waitFor(async () => [...(await settlementStates(m.orderUuids)).values()].includes('CONFIRMED'), {
      timeoutMs: 90_000,
      intervalMs: 50,
      description: 'a first transfer confirmed',
    });
    await platformControl.kill('orders', 'SIGKILL');
    const atKill = countBy(await orderStatuses(m.orderUuids));

    // more payouts while orders is down: payment.confirmed and transfer.succeeded pile up in Kafka
    for (const order of later) await m.merchant.pay(order);
    const piled = await waitFor(
      async () => {
        const states = await settlementStates(m.orderUuids);
        return states.size === orders.length && [...states.values()].every((s) => s === 'CONFIRMED')
          ? states
          : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, description: 'every payout confirmed while orders is down' },
    );
    process.stderr.write(
      `\n[chaos] b. orders at SIGKILL: ${JSON.stringify(atKill)}; settlements while down: ${JSON.stringify(countBy(piled))}\n`,
    );
    await platformControl.start('orders');

    await waitForSettled([m]);
    const verdict = await verifyScenario('b. orders SIGKILL mid transfer.succeeded', [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, 15);
  });
});
