import { waitFor } from '@onramp/testing';

import { ScenarioMerchant, verifyScenario } from './support/invariants';
import { chainHead, webhookDeliveryStates } from './support/ledger-probe';
import { ReceivedDelivery } from './support/programmable-receiver';
import { closeMerchants, openMerchant, waitForSettled } from './support/scenario';

type Name = 'flaky' | 'hanging' | 'gone' | 'steady';

const hung = (log: ReceivedDelivery[]): ReceivedDelivery[] => log.filter((d) => d.answered === 'hung');

// Four merchants' endpoints misbehave in four ways at once. A 503 streak and a hang (no answer
// until the 10 s timeout) are retried until the endpoint recovers; a 410 disables the endpoint;
// the merchant whose endpoint works is served while the hanging one holds requests open.
describe('d. webhook endpoints answering 503, hanging, answering 410', () => {
  const merchants = {} as Record<Name, ScenarioMerchant>;
  let fromBlock: number;

  beforeAll(async () => {
    fromBlock = await chainHead();
    for (const name of ['flaky', 'hanging', 'gone', 'steady'] as const) {
      merchants[name] = await openMerchant(`Chaos D ${name}`);
    }
    merchants.flaky.receiver.answer = 'unavailable';
    merchants.hanging.receiver.answer = 'hang';
    merchants.gone.receiver.answer = 'gone';
    merchants.gone.webhooks = false;
  });
  afterAll(() => closeMerchants(Object.values(merchants)));

  async function placeAndPay(m: ScenarioMerchant): Promise<void> {
    const orders = await m.merchant.createOrders(3, 40);
    m.orderUuids = orders.map((o) => o.uuid);
    for (const order of orders) await m.merchant.pay(order);
  }

  it('retries until 200, serves others while one endpoint hangs, disables the gone one', async () => {
    const { flaky, hanging, gone, steady } = merchants;
    for (const m of [flaky, hanging, gone]) await placeAndPay(m);
    await waitFor(() => hung(hanging.receiver.log).filter((d) => d.closedAt === undefined).length === 3, {
      timeoutMs: 90_000,
      intervalMs: 100,
      description: 'three requests held open by the hanging endpoint',
    });

    await placeAndPay(steady);
    await waitFor(() => steady.receiver.accepted().length === 3, {
      timeoutMs: 90_000,
      intervalMs: 100,
      description: 'the steady merchant served',
    });
    // each of them arrived while the hanging endpoint held a request open: one merchant's stuck
    // endpoint does not queue another's webhooks behind it
    const heldOpenAt = (t: number) =>
      hung(hanging.receiver.log).some((h) => h.at <= t && (h.closedAt ?? Infinity) > t);
    expect(steady.receiver.log.map((d) => heldOpenAt(d.at))).toEqual([true, true, true]);
    hanging.receiver.answer = 'ok';

    await waitFor(() => flaky.receiver.log.filter((d) => d.answered === 503).length >= 6, {
      timeoutMs: 60_000,
      description: 'retries against the 503 endpoint',
    });
    flaky.receiver.answer = 'ok';

    const endpoint = await waitFor(
      async () => {
        const e = await gone.merchant.webhookEndpoint();
        return e.disabled ? e : undefined;
      },
      { timeoutMs: 60_000, description: 'the 410 endpoint disabled' },
    );
    expect(endpoint.disabledReason).toMatch(/410/);
    await waitFor(async () => (await webhookDeliveryStates(gone.orderUuids)).DISABLED === 3, {
      timeoutMs: 90_000,
      description: "all of the gone merchant's deliveries DISABLED",
    });
    expect(await webhookDeliveryStates(gone.orderUuids)).toEqual({ DISABLED: 3 });
    expect(gone.receiver.log.every((d) => d.answered === 410)).toBe(true);

    await waitForSettled(Object.values(merchants));
    const verdict = await verifyScenario('d. webhook 503 / hang / 410', Object.values(merchants), fromBlock);
    expect(verdict.problems).toEqual([]);
    expect(verdict.figures).toMatchObject({
      orders: 12,
      completed: 12,
      transfersOnChain: 12,
      webhooksDelivered: 9,
      lost: 0,
    });
    const count = (m: ScenarioMerchant, answered: number | 'hung') =>
      m.receiver.log.filter((d) => d.answered === answered).length;
    process.stderr.write(
      `[chaos] d. attempts: flaky 503 x${count(flaky, 503)} then 200 x${count(flaky, 200)}; ` +
        `hanging hung x${count(hanging, 'hung')} then 200 x${count(hanging, 200)}; ` +
        `gone 410 x${count(gone, 410)}; steady 200 x${count(steady, 200)}\n`,
    );
  });
});
