import { randomUUID } from 'node:crypto';

import { parseUnits, Transaction } from 'ethers';

import { AnvilHandle, startAnvil } from '@onramp/chain';
import { Topics } from '@onramp/contracts';
import { operatorHeaders, waitFor } from '@onramp/testing';

import { ChainSettlementTestApp, startChainSettlementTestApp } from './testing/chain-settlement-test-app';
import { scrapeMetrics } from './testing/metrics-scrape';
import { SettlementHarness, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

// Anvil account 5: unlocked on the suite's own anvil, which answers eth_signTransaction for it as a
// remote signer (Web3Signer, Clef) would. The key never reaches chain-settlement.
const REMOTE_ACCOUNT = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';

describe('chain-settlement: a remote signer and payout caps (integration, own anvil)', () => {
  let anvil: AnvilHandle;
  let chain: TestChain;
  let h: SettlementHarness;
  let t: ChainSettlementTestApp;

  const nonceOf = async (orderUuid: string): Promise<bigint> =>
    BigInt((await t.settlement(orderUuid))?.nonce as string);

  // As the gateway's admin listener forwards an operator's request (its service credential).
  const admin = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...operatorHeaders(method, url, alice), ...headers } });
  const alice = { id: 'alice', scopes: ['read' as const, 'money' as const] };

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = await setUpTestChain(anvil.rpcUrl);
    await chain.mint(REMOTE_ACCOUNT, parseUnits('1000000', 6));
    h = await startSettlementHarness();
    t = await startChainSettlementTestApp({
      groupId: h.groupId,
      env: {
        ...chain.settlementEnv(''), // the run's default key, unset: the remote signer holds it
        SETTLEMENT_SIGNER_URL: anvil.rpcUrl,
        SETTLEMENT_SIGNER_ADDRESS: REMOTE_ACCOUNT,
        SETTLEMENT_SIGNER_AUTHORIZATION: 'Bearer not-checked-by-anvil',
        SETTLEMENT_MAX_PER_TRANSFER_USDC: '20',
        SETTLEMENT_MAX_PER_DAY_USDC: '60',
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await h?.close();
    chain?.close();
    await anvil?.stop();
  });

  it('pays through the remote signer: its bytes, checked, stored before broadcast, from its account', async () => {
    const data = h.payment({ payedAmount: '10' });
    await h.confirm(data);
    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 60_000);
    const [stored] = await t.transactions(data.orderUuid);
    const tx = Transaction.from(stored?.raw_tx as string);
    expect(tx.from).toBe(REMOTE_ACCOUNT);
    expect(tx.hash).toBe(event.data.transactionHash);
    expect((await chain.provider.getTransaction(tx.hash as string))?.from).toBe(REMOTE_ACCOUNT);
    expect(await chain.transfersTo(data.recipientAddress)).toEqual([{ txHash: tx.hash, value: 10_692_000n }]);
  });

  it('holds a payout over the per-transfer cap unsigned, without a nonce, until an operator releases it', async () => {
    const big = h.payment({ payedAmount: '30' }); // 32.076 USDC > 20
    await h.confirm(big);
    const held = await t.settlementIn(big.orderUuid, ['HELD']);
    expect(held).toMatchObject({ nonce: null, tx_hash: null });
    expect(held.last_error).toMatch(
      /^over payout cap: 32.076 USDC is above SETTLEMENT_MAX_PER_TRANSFER_USDC 20; an operator must release it/,
    );
    expect(await t.transactions(big.orderUuid)).toHaveLength(0);
    const metrics = await scrapeMetrics(t.app);
    expect(metrics.get('settlement_held_over_cap')).toBe('1');
    expect(metrics.get('settlement_settlements{state="HELD"}')).toBe('1');

    // The next payout takes the next nonce: the held one left no gap.
    const before = h.payment({ payedAmount: '1' });
    await h.confirm(before);
    await h.collector.waitFor(Topics.TransferSucceeded, before.orderUuid, 60_000);
    const [first] = await t.dataSource.query<Array<{ order_uuid: string }>>(
      `SELECT order_uuid FROM settlement.settlements WHERE state = 'CONFIRMED' ORDER BY nonce LIMIT 1`,
    );
    expect(await nonceOf(before.orderUuid)).toBe((await nonceOf(first?.order_uuid as string)) + 1n);
    expect((await t.settlement(big.orderUuid))?.state).toBe('HELD');

    const listed = await admin('GET', '/admin/settlements?state=HELD');
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['x-total-count']).toBe('1');
    expect(listed.json()).toEqual([
      {
        orderUuid: big.orderUuid,
        merchantId: h.merchant,
        recipientAddress: big.recipientAddress,
        tokenAmount: '32.076000',
        reason: held.last_error,
        heldSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    // Only from the gateway (its service credential), only HELD for now, and a UUID.
    expect((await t.app.inject({ method: 'GET', url: '/admin/settlements?state=HELD' })).statusCode).toBe(
      401,
    );
    expect((await admin('GET', '/admin/settlements')).statusCode).toBe(400);
    expect((await admin('GET', '/admin/settlements?state=CONFIRMED')).statusCode).toBe(400);
    expect((await admin('POST', '/admin/settlements/not-a-uuid/release')).statusCode).toBe(400);
    expect((await admin('POST', `/admin/settlements/${randomUUID()}/release`)).statusCode).toBe(404);

    const releaseUrl = `/admin/settlements/${big.orderUuid}/release`;
    const released = await admin('POST', releaseUrl, { 'x-request-id': 'req-release-1' });
    expect(released.statusCode).toBe(200);
    expect(released.json()).toEqual({ orderUuid: big.orderUuid, state: 'PENDING' });
    const event = await h.collector.waitFor(Topics.TransferSucceeded, big.orderUuid, 60_000);
    expect(event.data.sentTokenAmount).toBe('32.076');
    expect(await nonceOf(big.orderUuid)).toBe((await nonceOf(before.orderUuid)) + 1n);
    expect(
      await t.dataSource.query(`SELECT released_by FROM settlement.settlements WHERE order_uuid = $1`, [
        big.orderUuid,
      ]),
    ).toEqual([{ released_by: 'alice' }]);
    const log = await admin('GET', '/admin/audit-log?limit=50');
    expect(log.statusCode).toBe(200);
    expect(log.json()).toEqual([
      expect.objectContaining({
        service: 'chain-settlement',
        operator: 'alice',
        action: 'settlement.release',
        target: big.orderUuid,
        before: { state: 'HELD', reason: held.last_error, tokenAmount: '32.076000' },
        after: { state: 'PENDING', releasedBy: 'alice' },
        requestId: 'req-release-1',
      }),
    ]);
    // Released once: a second release is a conflict, and records nothing.
    const again = await admin('POST', releaseUrl);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: 'the settlement is not HELD (it is CONFIRMED)' });
    expect((await admin('GET', '/admin/audit-log?limit=50')).json()).toHaveLength(1);
    expect((await admin('GET', '/admin/settlements?state=HELD')).json()).toEqual([]);
  });

  it('holds what would pass the rolling 24 h cap, and signs it once the window has room', async () => {
    // Signed so far: 10.692 + 1.0692 + 32.076 = 43.8372 USDC of 60.
    const fits = h.payment({ payedAmount: '15' }); // 16.038: 59.8752
    await h.confirm(fits);
    await h.collector.waitFor(Topics.TransferSucceeded, fits.orderUuid, 60_000);
    const over = h.payment({ payedAmount: '1' }); // 1.0692: 60.9444 > 60
    await h.confirm(over);
    const held = await t.settlementIn(over.orderUuid, ['HELD']);
    expect(held.last_error).toMatch(
      /1.0692 USDC on top of 59.8752 signed in the last 24 h is above SETTLEMENT_MAX_PER_DAY_USDC 60/,
    );

    // A day passes for the earlier payouts (and the hold's minute-long recheck is due).
    await t.dataSource.query(
      `UPDATE settlement.settlements SET signed_at = signed_at - interval '25 hours' WHERE signed_at IS NOT NULL`,
    );
    await t.dataSource.query(`UPDATE settlement.signed_totals SET minute = minute - interval '25 hours'`);
    await t.dataSource.query(
      `UPDATE settlement.settlements SET next_attempt_at = now() WHERE order_uuid = $1`,
      [over.orderUuid],
    );
    await h.collector.waitFor(Topics.TransferSucceeded, over.orderUuid, 60_000);
    expect(await t.settlement(over.orderUuid)).toMatchObject({ state: 'CONFIRMED' });
    await waitFor(async () => (await scrapeMetrics(t.app)).get('settlement_held_over_cap') === '0', {
      timeoutMs: 10_000,
      description: 'nothing held any more',
    });
  });
});
