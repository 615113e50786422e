import { waitFor } from '@onramp/testing';

import { chaosEnv } from './support/chaos-env';
import { ScenarioMerchant, expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { chainHead, countBy, settlementStates } from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { closeMerchants, openMerchant, waitForSettled } from './support/scenario';

const POINTS = ['after-sign', 'after-broadcast', 'awaiting-receipt'] as const;

async function settlementAlive(): Promise<boolean> {
  const res = await fetch(`${chaosEnv.settlementUrl()}/health`, { signal: AbortSignal.timeout(1000) }).catch(
    () => undefined,
  );
  return res?.ok === true;
}

// chain-settlement kills itself (SIGKILL) at the exact point of the payout named by
// SETTLEMENT_CRASH_POINT: after the signed transaction is stored but before broadcast; after the
// node took it but before our database knows; after the broadcast is recorded, before the receipt.
// Restarted without the crash point, it must finish each order with exactly one transfer.
describe('k. chain-settlement SIGKILLed at exact points of a payout', () => {
  const merchants: ScenarioMerchant[] = [];
  afterAll(async () => {
    await platformControl.kill('chain-settlement'); // no-op when already dead
    await platformControl.start('chain-settlement');
    await closeMerchants(merchants);
  });

  it.each(POINTS)('crash %s, restart: paid exactly once', async (point) => {
    const fromBlock = await chainHead();
    const m = await openMerchant(`Chaos K ${point}`);
    merchants.push(m);
    await platformControl.restart('chain-settlement', { SETTLEMENT_CRASH_POINT: point });

    const [order] = await m.merchant.createOrders(1, 25);
    m.orderUuids = [order.uuid];
    await m.merchant.pay(order);
    await waitFor(async () => !(await settlementAlive()), {
      timeoutMs: 60_000,
      intervalMs: 100,
      description: `chain-settlement dead at ${point}`,
    });
    const atCrash = countBy(await settlementStates(m.orderUuids));

    await platformControl.kill('chain-settlement'); // reap the dead process
    await platformControl.start('chain-settlement'); // the platform's normal settings: no crash point
    await waitForSettled([m]);

    const verdict = await verifyScenario(`k. crash ${point}`, [m], fromBlock);
    process.stderr.write(`\n[chaos] k. ${point}: settlement at the crash ${JSON.stringify(atCrash)}\n`);
    expectEveryOrderPaidOnce(verdict, 1);
  });
});
