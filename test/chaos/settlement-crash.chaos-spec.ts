import { waitFor } from '@onramp/testing';

import { expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { countBy, settlementStates } from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { placeOrders, useScenario, waitForSettled } from './support/scenario';

const PER_BATCH = 5;

// When to pull the plug in each batch: as soon as its first settlement exists (before or while
// signing), as soon as one is signed (others signing, none broadcast), as soon as any payout of the
// run is confirmed (others broadcast or awaiting their receipt).
const KILL_WHEN: Array<{ label: string; ready: (batch: string[], all: string[]) => boolean }> = [
  { label: 'first settlement created', ready: (batch) => batch.length > 0 },
  { label: 'first settlement signed', ready: (batch) => batch.some((s) => s !== 'PENDING') },
  { label: 'first payout confirmed', ready: (_batch, all) => all.includes('CONFIRMED') },
  { label: 'first settlement signed', ready: (batch) => batch.some((s) => s !== 'PENDING') },
];
const BATCHES = KILL_WHEN.length;

// The worker that signs and broadcasts payouts dies without warning, again and again, at the
// moments above. Stored signed bytes and the nonce lock must make every order paid exactly once anyway.
describe('a. chain-settlement SIGKILLed repeatedly while 20 orders settle', () => {
  const scenario = useScenario('Chaos A settlement crash');

  it('completes all 20 orders, each paid exactly once, each webhook delivered', async () => {
    const { m, fromBlock } = scenario;
    const orders = await placeOrders(m, BATCHES * PER_BATCH, 10);
    const atKill: string[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const batch = orders.slice(b * PER_BATCH, (b + 1) * PER_BATCH);
      for (const order of batch) await m.merchant.pay(order);
      const when = KILL_WHEN[b];
      await waitFor(
        async () => {
          const all = await settlementStates(m.orderUuids);
          const mine = batch.flatMap((o) => all.get(o.uuid) ?? []);
          return when.ready(mine, [...all.values()]);
        },
        { timeoutMs: 90_000, intervalMs: 50, description: `batch ${b}: ${when.label}` },
      );
      await platformControl.kill('chain-settlement', 'SIGKILL');
      atKill.push(`${when.label} ${JSON.stringify(countBy(await settlementStates(m.orderUuids)))}`);
      await platformControl.start('chain-settlement');
    }
    process.stderr.write(`\n[chaos] a. settlement states at each SIGKILL: ${atKill.join(' | ')}\n`);

    await waitForSettled([m]);
    const verdict = await verifyScenario(`a. chain-settlement SIGKILL x${BATCHES}`, [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, 20);
  });
});
