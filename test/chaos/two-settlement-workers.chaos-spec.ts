import { Contract, HDNodeWallet, Wallet } from 'ethers';

import { localProvider, TEST_USDC_ABI } from '@onramp/chain';
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

// Anvil dev account 4 (public, prefunded with ETH on every anvil): the second process's hot wallet.
const SECOND_KEY = HDNodeWallet.fromPhrase(
  'test test test test test test test test test test test junk',
  undefined,
  "m/44'/60'/0'/0/4",
).privateKey;

// A second chain-settlement process beside the first: same database, same consumer group, a hot
// wallet of its own (each process leases one signer). They share 200 orders: each paid exactly
// once, by one of the two wallets, and each wallet's nonces stay gapless, while both processes sign.
describe(`j. two chain-settlement processes, each with a hot wallet, sharing ${ORDERS} orders`, () => {
  let m: ScenarioMerchant;
  let fromBlock: number;
  const startNonce = new Map<string, number>();
  const provider = localProvider(chaosEnv.rpcUrl());
  const signers = [chaosEnv.signerAddress(), new Wallet(SECOND_KEY).address];

  beforeAll(async () => {
    fromBlock = await chainHead();
    m = await openMerchant('Chaos J two settlement workers');
    for (const signer of signers) startNonce.set(signer, await provider.getTransactionCount(signer, 'latest'));
    const owner = new Wallet(chaosEnv.usdcOwnerKey(), provider);
    const usdc = new Contract(chaosEnv.usdcAddress(), TEST_USDC_ABI, owner);
    const minted = (await usdc.getFunction('mint')(signers[1], 10n ** 12n)) as { wait(): Promise<unknown> };
    await minted.wait();
    await platformControl.start('chain-settlement', {
      instance: SECOND,
      env: { SETTLEMENT_SIGNER_KEY: SECOND_KEY },
    });
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

  it(`completes all ${ORDERS} exactly once, each wallet's nonces gapless, both processes signing`, async () => {
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
    const noncesOf = (signer: string): number[] =>
      rows
        .filter((r) => r.signer_address === signer)
        .map((r) => Number(r.nonce) - (startNonce.get(signer) ?? 0))
        .sort((a, b) => a - b);
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
        `per wallet ${signers.map((w) => noncesOf(w).length).join('/')}, replaced transactions ${replaced}\n`,
    );

    expect(rows.every((r) => signers.includes(r.signer_address ?? ''))).toBe(true);
    for (const signer of signers) {
      const nonces = noncesOf(signer);
      expect(nonces).toEqual(Array.from({ length: nonces.length }, (_, i) => i));
      expect(await provider.getTransactionCount(signer, 'latest')).toBe(
        (startNonce.get(signer) ?? 0) + nonces.length,
      );
    }
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
