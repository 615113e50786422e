import { setTimeout as sleep } from 'node:timers/promises';

import { Contract, parseEther, Wallet } from 'ethers';

import { localProvider, TEST_USDC_ABI } from '@onramp/chain';
import { waitFor } from '@onramp/testing';

import { chaosEnv } from './support/chaos-env';
import { ScenarioMerchant, expectEveryOrderPaidOnce, verifyScenario } from './support/invariants';
import { chainHead, orderStatuses, SettlementRow, settlementRows } from './support/ledger-probe';
import { platformControl } from './support/platform-control';
import { closeMerchants, openMerchant, placeOrders, waitForSettled } from './support/scenario';
import { settlementMetric } from './support/settlement-evidence';

const ORDERS = 5;
const HELD = 'hot wallet underfunded:'; // how a held settlement's last_error starts

interface Tx {
  wait(): Promise<unknown>;
}

// chain-settlement restarted with a fresh hot wallet that has gas money but no USDC: paid orders
// are held (not failed, not paid) while it is empty; once the token is minted to it, each order is
// paid exactly once.
describe('i. hot wallet without USDC, then funded', () => {
  let m: ScenarioMerchant;
  let fromBlock: number;
  const provider = localProvider(chaosEnv.rpcUrl());
  const owner = new Wallet(chaosEnv.usdcOwnerKey(), provider);
  const usdc = new Contract(chaosEnv.usdcAddress(), TEST_USDC_ABI, owner);
  const hotWallet = Wallet.createRandom();
  const usdcOf = (address: string) => usdc.getFunction('balanceOf')(address) as Promise<bigint>;

  beforeAll(async () => {
    fromBlock = await chainHead();
    m = await openMerchant('Chaos I empty hot wallet');
    await (await owner.sendTransaction({ to: hotWallet.address, value: parseEther('1') })).wait();
    await platformControl.restart('chain-settlement', {
      SETTLEMENT_SIGNER_KEY: hotWallet.privateKey,
      SETTLEMENT_POLL_MS: '100', // held settlements back off from 100 ms, so funding shows within seconds
    });
  });
  afterAll(async () => {
    await platformControl.restart('chain-settlement'); // the platform's own hot wallet again
    await closeMerchants([m]);
    provider.destroy();
  });

  it(`holds ${ORDERS} paid orders while the wallet is empty, completes them once it is funded`, async () => {
    const orders = await placeOrders(m, ORDERS, 80);
    for (const order of orders) await m.merchant.pay(order);

    const isHeld = (r: SettlementRow) => r.state === 'PENDING' && r.last_error?.startsWith(HELD) === true;
    const held = await waitFor(
      async () => {
        const rows = await settlementRows(m.orderUuids);
        return rows.length === ORDERS && rows.every(isHeld) ? rows : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, description: `${ORDERS} settlements held as underfunded` },
    );
    await sleep(1500); // held, and still held: nothing fails or moves while the wallet stays empty
    const rows = await settlementRows(m.orderUuids);
    const statuses = await orderStatuses(m.orderUuids);
    const heldMetric = await settlementMetric('settlement_held_underfunded');
    expect(rows.filter(isHeld)).toHaveLength(ORDERS);
    expect(m.orderUuids.map((u) => statuses.get(u))).toEqual(Array(ORDERS).fill('CREATED'));
    expect(heldMetric).toBe(ORDERS);
    expect(m.receiver.log).toHaveLength(0);

    // exactly what the held payouts need: the preflight must count the ones already signed
    const owed = rows.reduce((sum, r) => sum + BigInt(r.token_base_units ?? 0), 0n);
    const fundedAt = Date.now();
    await ((await usdc.getFunction('mint')(hotWallet.address, owed)) as Tx).wait();
    await waitForSettled([m]);
    const paidSeconds = ((Date.now() - fundedAt) / 1000).toFixed(1);

    const paid = await settlementRows(m.orderUuids);
    const nonces = paid.map((r) => Number(r.nonce)).sort((a, b) => a - b);
    const attempts = held.map((r) => r.attempts).join('/');
    process.stderr.write(
      `\n[chaos] i. held ${ORDERS} (metric ${heldMetric}, attempts ${attempts} when first all held, ` +
        `last_error "${rows[0]?.last_error ?? ''}"); minted ${owed} base units; all completed ${paidSeconds} s later\n`,
    );
    expect(paid.every((r) => r.signer_address === hotWallet.address)).toBe(true);
    expect(nonces).toEqual([0, 1, 2, 3, 4]);
    expect(await usdcOf(hotWallet.address)).toBe(0n);
    const verdict = await verifyScenario('i. hot wallet empty, then funded', [m], fromBlock);
    expectEveryOrderPaidOnce(verdict, ORDERS);
  });
});
