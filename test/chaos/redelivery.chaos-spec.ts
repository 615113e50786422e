import { waitFor } from '@onramp/testing';

import { expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { groupLag, rewindGroup } from './support/kafka-groups';
import { duplicateEffects } from './support/ledger-probe';
import { AppName, platformControl } from './support/platform-control';
import { placeOrders, useScenario, waitForSettled } from './support/scenario';

const CONSUMERS: AppName[] = ['payment-ingest', 'chain-settlement', 'orders', 'webhook-dispatch'];

// Every consumer group that moves money or sends webhooks is rewound to the earliest offset while its
// service is stopped: on restart it receives every event of the run again (this scenario's and all
// earlier ones'). Inboxes must make all of it a no-op: no second payout, no second terminal event,
// no second webhook.
describe('c. every event delivered twice (consumer groups rewound to earliest)', () => {
  const scenario = useScenario('Chaos C redelivery');

  it('changes nothing: no duplicate transfer, event or webhook', async () => {
    const { m, fromBlock } = scenario;
    const orders = await placeOrders(m, 6, 30);
    for (const order of orders) await m.merchant.pay(order);
    await waitForSettled([m]);
    const webhooksBefore = m.receiver.log.length;

    for (const app of CONSUMERS) await platformControl.kill(app, 'SIGTERM');
    const rewound = new Map<string, string[]>();
    const lags: string[] = [];
    for (const app of CONSUMERS) {
      const group = `onramp-${app}`;
      // a clean shutdown leaves the group; until the broker has seen it, the reset is refused
      const topics = await waitFor(() => rewindGroup(group), {
        timeoutMs: 30_000,
        description: `rewind ${group}`,
      });
      rewound.set(group, topics);
      lags.push(`${group} ${topics.length} topics, ${await groupLag(group, topics)} events`);
    }
    process.stderr.write(`\n[chaos] c. redelivering: ${lags.join('; ')}\n`);
    for (const app of CONSUMERS) await platformControl.start(app);

    for (const [group, topics] of rewound) {
      await waitFor(async () => (await groupLag(group, topics)) === 0n, {
        timeoutMs: 120_000,
        intervalMs: 500,
        description: `${group} through every redelivered event`,
      });
    }

    expect(await duplicateEffects()).toEqual({
      orderEvents: 0,
      transferEvents: 0,
      paymentEvents: 0,
      webhookDeliveries: 0,
    });
    expect(m.receiver.log.length).toBe(webhooksBefore);
    const verdict = await verifyScenario('c. every event redelivered', [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, 6);
  });
});
