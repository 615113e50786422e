import { Contract, Wallet } from 'ethers';

import { localProvider, TEST_USDC_ABI } from '@onramp/chain';

import { chaosEnv } from './support/chaos-env';
import { ScenarioMerchant, expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { chainHead, orderStatuses, settlementStates } from './support/ledger-probe';
import { closeMerchants, openMerchant, waitForSettled } from './support/scenario';

// The token refuses transfers to a blacklisted address (a payout to one would revert on chain):
// settlement screens recipients before signing, so those orders fail with order.failed, no token
// moves, no nonce is spent on them, and the other orders of the batch are unaffected.
describe('e. a payout to a blacklisted recipient', () => {
  let m: ScenarioMerchant;
  let fromBlock: number;
  const provider = localProvider(chaosEnv.rpcUrl());
  const usdc = new Contract(
    chaosEnv.usdcAddress(),
    TEST_USDC_ABI,
    new Wallet(chaosEnv.usdcOwnerKey(), provider),
  );

  beforeAll(async () => {
    fromBlock = await chainHead();
    m = await openMerchant('Chaos E revert');
  });
  afterAll(async () => {
    await closeMerchants([m]);
    provider.destroy();
  });

  it('fails the blacklisted orders, moves no tokens to them, completes the rest', async () => {
    const blocked = [Wallet.createRandom().address, Wallet.createRandom().address];
    for (const address of blocked) {
      await ((await usdc.getFunction('blacklist')(address)) as { wait(): Promise<unknown> }).wait();
    }
    const orders = [
      await m.merchant.createOrder(50),
      await m.merchant.createOrder(51, blocked[0]),
      await m.merchant.createOrder(52),
      await m.merchant.createOrder(53, blocked[1]),
      await m.merchant.createOrder(54),
    ];
    m.orderUuids = orders.map((o) => o.uuid);
    for (const order of orders) await m.merchant.pay(order);

    await waitForSettled([m]);
    const statuses = await orderStatuses(m.orderUuids);
    expect(orders.map((o) => statuses.get(o.uuid))).toEqual([
      'COMPLETED',
      'FAILED',
      'COMPLETED',
      'FAILED',
      'COMPLETED',
    ]);
    const settlements = await settlementStates(m.orderUuids);
    expect(orders.map((o) => settlements.get(o.uuid))).toEqual([
      'CONFIRMED',
      'FAILED',
      'CONFIRMED',
      'FAILED',
      'CONFIRMED',
    ]);
    for (const address of blocked) expect(await usdc.getFunction('balanceOf')(address)).toBe(0n);
    const failedHooks = m.receiver
      .accepted()
      .filter((d) => d.event === 'order.failed')
      .map((d) => d.orderUuid);
    expect(failedHooks.sort()).toEqual([orders[1].uuid, orders[3].uuid].sort());

    const verdict = await verifyScenario('e. reverted payout (blacklist)', [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, 5, 2);
  });
});
