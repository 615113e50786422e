import { localProvider } from '@onramp/chain';
import { waitFor } from '@onramp/testing';

import { chaosEnv } from './support/chaos-env';
import { PlacedOrder } from './support/chaos-merchant';
import { ScenarioMerchant, expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { stableGroupMembers } from './support/kafka-groups';
import { chainHead, duplicateEffects, settlementRows } from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { closeMerchants, openMerchant, waitForSettled } from './support/scenario';
import { signedInLog } from './support/settlement-evidence';

const ORDERS = 200;
const HTTP_CONCURRENCY = 8; // merchant requests in flight through the gateway at once
const SECOND = '2'; // the second process: log chain-settlement-2.log, a port of its own

async function inParallel<T, R>(items: T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return out;
}

// A second chain-settlement process beside the first: same database, same consumer group, same
// hot wallet. They share 200 orders: each paid exactly once, and the wallet's nonces stay gapless
// (the signer row lock), while both processes sign.
describe(`j. two chain-settlement processes sharing ${ORDERS} orders and one hot wallet`, () => {
  let m: ScenarioMerchant;
  let fromBlock: number;
  let startNonce: number;
  const provider = localProvider(chaosEnv.rpcUrl());
  const signer = chaosEnv.signerAddress();

  beforeAll(async () => {
    fromBlock = await chainHead();
    m = await openMerchant('Chaos J two settlement workers');
    startNonce = await provider.getTransactionCount(signer, 'latest');
    await platformControl.start('chain-settlement', { instance: SECOND });
    // both consumers in the group before the burst, so payments reach both
    await waitFor(async () => (await stableGroupMembers('onramp-chain-settlement')) === 2, {
      timeoutMs: 60_000,
      intervalMs: 250,
      description: 'onramp-chain-settlement stable with two members',
    });
  });
  afterAll(async () => {
    await platformControl.kill('chain-settlement', 'SIGTERM', { instance: SECOND });
    await closeMerchants([m]);
    provider.destroy();
  });

  it(`completes all ${ORDERS} exactly once, nonces gapless, both processes signing`, async () => {
    const t0 = Date.now();
    const amounts = Array.from({ length: ORDERS }, (_, i) => 10 + (i % 90));
    const orders: PlacedOrder[] = await inParallel(amounts, HTTP_CONCURRENCY, (a) =>
      m.merchant.createOrder(a),
    );
    m.orderUuids = orders.map((o) => o.uuid);
    const created = Date.now();
    await inParallel(orders, HTTP_CONCURRENCY, (o) => m.merchant.pay(o));
    const paid = Date.now();
    await waitForSettled([m], 240_000);
    const settled = Date.now();

    const rows = await settlementRows(m.orderUuids);
    const nonces = rows.map((r) => Number(r.nonce) - startNonce).sort((a, b) => a - b);
    const mine = new Set(m.orderUuids);
    const first = [...signedInLog()].filter((u) => mine.has(u));
    const second = [...signedInLog(SECOND)].filter((u) => mine.has(u));
    const both = first.filter((u) => second.includes(u));
    const replaced = rows.reduce((n, r) => n + r.transactions - 1, 0);
    const s = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
    process.stderr.write(
      `\n[chaos] j. ${ORDERS} orders: created in ${s(t0, created)} s, paid in ${s(created, paid)} s, ` +
        `all COMPLETED with webhooks ${s(paid, settled)} s later (${s(t0, settled)} s in all); ` +
        `signed by process 1: ${first.length}, process 2: ${second.length}, both: ${both.length}; ` +
        `nonces ${startNonce}..${startNonce + ORDERS - 1}, replaced transactions ${replaced}\n`,
    );

    expect(rows.every((r) => r.signer_address === signer)).toBe(true);
    expect(nonces).toEqual(Array.from({ length: ORDERS }, (_, i) => i));
    expect(await provider.getTransactionCount(signer, 'latest')).toBe(startNonce + ORDERS);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect(both).toEqual([]);
    expect(first.length + second.length).toBe(ORDERS);
    expect(await duplicateEffects()).toEqual({
      orderEvents: 0,
      transferEvents: 0,
      paymentEvents: 0,
      webhookDeliveries: 0,
    });
    const verdict = await verifyScenario(`j. two settlement workers, ${ORDERS} orders`, [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, ORDERS);
  });
});
