import { Interface, parseUnits, Wallet, zeroPadValue } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';
import { Topics } from '@onramp/contracts';
import { waitFor } from '@onramp/testing';
import {
  DriveInFlightStep,
  SettlementWorker,
  SignerLeases,
  SignPendingStep,
} from '@onramp/settlement-feature';

import { ChainSettlementTestApp, startChainSettlementTestApp } from './testing/chain-settlement-test-app';
import { scrapeMetrics } from './testing/metrics-scrape';
import { SettlementHarness, settlementIn, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

const transferTopic = new Interface(ERC20_ABI).getEvent('Transfer')?.topicHash as string;
// A lease expires after 3 heartbeats (3 s): long enough that a process slowed down by a loaded
// machine keeps its lease while the test drives it, short enough for the take-over to come soon.
const HEARTBEAT_MS = 1_000;

// Two processes (two Nest apps, one database, one consumer group) with the same pool of one hot
// wallet: A holds the signer's lease, B waits as a spare. A dies with transfers in flight (some
// signed and never sent, some sent and mined without A knowing); B takes the signer over once the
// lease expired and completes them from the stored bytes, then signs new payouts with the next
// nonces. Every payout once, nonces gapless.
describe('chain-settlement: signer leases, take-over of a dead process (integration)', () => {
  let chain: TestChain;
  let hotWallet: Wallet;
  let h: SettlementHarness;
  let a: ChainSettlementTestApp;
  let aClosed = false;
  let b: ChainSettlementTestApp | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    chain = await setUpTestChain();
    hotWallet = await chain.newFundedWallet(parseUnits('1000000', 6));
    h = await startSettlementHarness();
    env = {
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      USDC_ADDRESS: chain.usdcAddress,
      SETTLEMENT_SIGNER_KEY: hotWallet.privateKey,
      SETTLEMENT_POLL_MS: '100',
      SETTLEMENT_LEASE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    };
    a = await startChainSettlementTestApp({ env, groupId: h.groupId });
  });

  afterAll(async () => {
    if (!aClosed) await a?.close();
    await b?.close();
    await h?.close();
    chain?.close();
  });

  const leaseHolder = async (t: ChainSettlementTestApp): Promise<string | undefined> => {
    const [row]: Array<{ holder: string }> = await t.dataSource.query(
      `SELECT holder FROM settlement.signer_leases WHERE signer_address = $1 AND expires_at > now()`,
      [hotWallet.address],
    );
    return row?.holder;
  };

  it('hands a dead process signer, in-flight transfers and nonces to the spare', async () => {
    const leasesA = a.app.get(SignerLeases);
    const signerA = leasesA.current();
    expect(signerA?.address).toBe(hotWallet.address);
    expect(await leaseHolder(a)).toBe(leasesA.holder);

    b = await startChainSettlementTestApp({ env, groupId: h.groupId, databaseUrl: a.databaseUrl });
    const leasesB = b.app.get(SignerLeases);
    expect(leasesB.current()).toBeUndefined(); // the one signer is A's: B is a spare

    // A signs ten payouts and sends the first five (mined at once: anvil automines), then dies
    // before it records any receipt: its worker loop is stopped, its steps are driven by hand.
    await a.app.get(SettlementWorker).stop();
    const before = Array.from({ length: 10 }, (_, i) => h.payment({ payedAmount: `${i + 1}.00` }));
    for (const p of before) await h.confirm(p);
    for (const p of before) await settlementIn(a.dataSource, p.orderUuid, ['PENDING']);
    const signer = signerA as NonNullable<typeof signerA>;
    const signed = await a.app.get(SignPendingStep).runBatch(signer, new Set(), 50);
    expect(signed.signed.sort()).toEqual(before.map((p) => p.orderUuid).sort());
    const inFlight = a.app.get(DriveInFlightStep);
    const sent = new Set<string>();
    for (let i = 0; i < 5; i++) expect((await inFlight.runOnce(signer, sent)).kind).toBe('broadcast');
    const states: Array<{ state: string; n: number }> = await a.dataSource.query(
      `SELECT state, count(*)::int AS n FROM settlement.settlements GROUP BY state ORDER BY state`,
    );
    expect(states).toEqual([
      { state: 'BROADCAST', n: 5 },
      { state: 'SIGNED', n: 5 },
    ]);
    // /metrics per signer: what is in flight, the next nonce, who holds the lease, the balances.
    const label = `address="${hotWallet.address}"`;
    const metrics = await scrapeMetrics(b.app); // the spare reports the same numbers
    expect(metrics.get(`settlement_signer_in_flight{${label}}`)).toBe('10');
    expect(metrics.get(`settlement_signer_next_nonce{${label}}`)).toBe('10');
    expect(metrics.get(`settlement_signer_lease{${label},holder="${leasesA.holder}"}`)).toBe('1');
    expect(metrics.get(`settlement_hot_wallet_usdc{${label}}`)).toMatch(/^\d+(\.\d+)?$/);
    expect(metrics.get(`settlement_hot_wallet_eth{${label}}`)).toMatch(/^\d+(\.\d+)?$/);

    await leasesA.stop(false); // the crash: no release, the lease runs out on its own
    await a.close();
    aClosed = true;

    // B takes the signer once the lease expired, and completes what A left.
    await waitFor(() => leasesB.current(), {
      timeoutMs: 10_000,
      description: 'B holds the signer lease',
    });
    expect(await leaseHolder(b)).toBe(leasesB.holder);
    const db = b.dataSource;
    for (const p of before) await settlementIn(db, p.orderUuid, ['CONFIRMED'], 30_000);

    // New payouts are B's own, with the nonces after A's.
    const after = Array.from({ length: 3 }, (_, i) => h.payment({ payedAmount: `${i + 21}.00` }));
    for (const p of after) await h.confirm(p);
    for (const p of after) await settlementIn(db, p.orderUuid, ['CONFIRMED'], 30_000);

    const rows: Array<{ order_uuid: string; nonce: string; tx_hash: string; n_txs: number }> = await db.query(
      `SELECT s.order_uuid, s.nonce::text, s.tx_hash,
              (SELECT count(*)::int FROM settlement.settlement_transactions t WHERE t.order_uuid = s.order_uuid) AS n_txs
       FROM settlement.settlements s WHERE s.signer_address = $1 ORDER BY s.nonce`,
      [hotWallet.address],
    );
    expect(rows.map((r) => Number(r.nonce))).toEqual(Array.from({ length: 13 }, (_, i) => i));
    expect(rows.every((r) => r.n_txs === 1)).toBe(true); // nothing re-signed: A's bytes were sent as stored
    const byOrder = new Map(rows.map((r) => [r.order_uuid, r]));
    expect(before.map((p) => Number(byOrder.get(p.orderUuid)?.nonce)).sort((x, y) => x - y)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(await chain.provider.getTransactionCount(hotWallet.address, 'latest')).toBe(13);
    const settled = await scrapeMetrics(b.app);
    expect(settled.get(`settlement_signer_in_flight{${label}}`)).toBe('0');
    expect(settled.get(`settlement_signer_next_nonce{${label}}`)).toBe('13');
    expect(settled.get(`settlement_signer_lease{${label},holder="${leasesB.holder}"}`)).toBe('1');

    // On chain: one Transfer from the hot wallet per order, to its recipient.
    const logs = await chain.provider.getLogs({
      address: chain.usdcAddress,
      fromBlock: 0,
      toBlock: 'latest',
      topics: [transferTopic, zeroPadValue(hotWallet.address, 32)],
    });
    expect(new Set(logs.map((l) => l.transactionHash))).toEqual(new Set(rows.map((r) => r.tx_hash)));
    for (const p of [...before, ...after])
      expect(await chain.transfersTo(p.recipientAddress)).toEqual([
        { txHash: byOrder.get(p.orderUuid)?.tx_hash, value: expect.any(BigInt) },
      ]);
    for (const p of [...before, ...after]) {
      await h.collector.waitFor(Topics.TransferSucceeded, p.orderUuid, 30_000);
      expect(h.collector.forOrder(Topics.TransferSucceeded, p.orderUuid)).toHaveLength(1);
    }
  }, 120_000);

  it('stops signing at once when a renewal finds the lease taken over', async () => {
    const spare = await startChainSettlementTestApp({
      env,
      groupId: h.groupId,
      databaseUrl: (b as ChainSettlementTestApp).databaseUrl,
    });
    try {
      const holder = (b as ChainSettlementTestApp).app.get(SignerLeases);
      const other = spare.app.get(SignerLeases);
      expect(holder.current()?.address).toBe(hotWallet.address);
      expect(other.current()).toBeUndefined();
      // The holder was presumed dead (its lease ran out, say while its database was unreachable)
      // and the spare took the signer over: what the spare's conditional upsert does, written here
      // directly so the holder's own heartbeats cannot renew the lease first.
      await spare.dataSource.query(
        `UPDATE settlement.signer_leases SET holder = $2, acquired_at = now(), expires_at = now() + interval '10 seconds'
         WHERE signer_address = $1`,
        [hotWallet.address, other.holder],
      );
      // The old holder's next renewal updates no row: it gives the signer up at once.
      await holder.heartbeat();
      expect(holder.current()).toBeUndefined();
      await waitFor(() => other.current(), { timeoutMs: 10_000, description: 'the spare signs' });
      expect(await leaseHolder(spare)).toBe(other.holder);

      // And the spare pays.
      const p = h.payment({ payedAmount: '5.00' });
      await h.confirm(p);
      await settlementIn(spare.dataSource, p.orderUuid, ['CONFIRMED'], 30_000);
    } finally {
      await spare.close();
    }
  }, 60_000);
});
