import { Interface, parseUnits, Wallet, zeroPadValue } from 'ethers';

import { ERC20_ABI } from '@onramp/chain';
import { EventEnvelope, PaymentConfirmedV1, Topics } from '@onramp/contracts';
import { envelope, produceMany, testKafka, waitFor } from '@onramp/testing';
import {
  DriveInFlightStep,
  OnPicked,
  SignerLeases,
  SignPendingStep,
  StepResult,
} from '@onramp/settlement-feature';

import { ChainSettlementTestApp, startChainSettlementTestApp } from './testing/chain-settlement-test-app';
import { SettlementHarness, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

const ORDERS = 200;
const transferTopic = new Interface(ERC20_ABI).getEvent('Transfer')?.topicHash as string;

// Two instances of the service (two Nest apps, one database, one consumer group) with the same pool
// of two hot wallets (SETTLEMENT_SIGNER_KEYS): each leases one of them and they share a burst of
// payments. Every order is paid exactly once and each wallet's nonces stay gapless.
describe('chain-settlement: two workers, a pool of two hot wallets (integration)', () => {
  let chain: TestChain;
  let hotWallets: Wallet[];
  let h: SettlementHarness;
  const apps: ChainSettlementTestApp[] = [];
  const work = [new Map<string, number>(), new Map<string, number>()]; // step results per instance

  // Counts what each instance's steps did (settlements signed, one by one or in batches), to show that both took part.
  const countResults = (app: ChainSettlementTestApp, tally: Map<string, number>) => {
    const counted = async (work: Promise<StepResult>): Promise<StepResult> => {
      const result = await work;
      tally.set(result.kind, (tally.get(result.kind) ?? 0) + 1);
      return result;
    };
    const signOne = app.app.get(SignPendingStep);
    const signOnce = signOne.runOnce.bind(signOne);
    jest
      .spyOn(signOne, 'runOnce')
      .mockImplementation((signer, skip: Set<string>, onPicked?: OnPicked) =>
        counted(signOnce(signer, skip, onPicked)),
      );
    const drive = app.app.get(DriveInFlightStep);
    const driveOnce = drive.runOnce.bind(drive);
    jest
      .spyOn(drive, 'runOnce')
      .mockImplementation(
        (signer, skip: Set<string>, onPicked?: OnPicked, stalled?: ReadonlyMap<string, string>) =>
          counted(driveOnce(signer, skip, onPicked, stalled)),
      );
    const signing = app.app.get(SignPendingStep);
    const runBatch = signing.runBatch.bind(signing);
    jest.spyOn(signing, 'runBatch').mockImplementation(async (signer, skip: Set<string>, limit: number) => {
      const result = await runBatch(signer, skip, limit);
      tally.set('signed', (tally.get('signed') ?? 0) + result.signed.length);
      return result;
    });
  };

  beforeAll(async () => {
    chain = await setUpTestChain(); // the run's anvil, mining a block per transaction
    hotWallets = [
      await chain.newFundedWallet(parseUnits('1000000', 6)),
      await chain.newFundedWallet(parseUnits('1000000', 6)),
    ];
    h = await startSettlementHarness();
    const env = {
      ...chain.settlementEnv(''), // the run's hot wallet (global setup) is not ours: a pool instead
      SETTLEMENT_SIGNER_KEYS: hotWallets.map((w) => w.privateKey).join(','),
    };
    apps.push(await startChainSettlementTestApp({ env, groupId: h.groupId }));
    apps.push(
      await startChainSettlementTestApp({ env, groupId: h.groupId, databaseUrl: apps[0]?.databaseUrl }),
    );
    apps.forEach((app, i) => countResults(app, work[i] as Map<string, number>));
    // One signer each: the first app took the first key of the pool, the second the other.
    expect(apps.map((app) => app.app.get(SignerLeases).current()?.address)).toEqual(
      hotWallets.map((w) => w.address),
    );
    // Both consumers in the group before the burst, so the measurement is not a rebalance.
    const admin = testKafka().admin();
    await admin.connect();
    await waitFor(
      async () => {
        const [group] = (await admin.describeGroups([h.groupId])).groups;
        return group?.state === 'Stable' && group.members.length === 2;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: 'consumer group stable with two members' },
    );
    await admin.disconnect();
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await h?.close();
    chain?.close();
  });

  it(`pays ${ORDERS} orders exactly once, with gapless nonces`, async () => {
    const payments: PaymentConfirmedV1[] = Array.from({ length: ORDERS }, (_, i) =>
      h.payment({ payedAmount: `${1 + i}.25` }),
    );
    const expected = new Map(payments.map((p) => [p.recipientAddress, p]));
    const events: EventEnvelope[] = payments.map((p) => envelope(Topics.PaymentConfirmed, h.merchant, p));
    const byEvent = new Map(events.map((e, i) => [e.id, payments[i]?.orderUuid as string]));
    const ds = apps[0]?.dataSource;
    if (!ds) throw new Error('no app');
    const started = Date.now();
    await produceMany(h.producer, events, (e) => byEvent.get(e.id) as string);

    // Phases, for the report: all consumed (rows exist), all signed, all confirmed.
    const phase: Record<string, number> = {};
    await waitFor(
      async () => {
        const [c]: { stored: number; signed: number; confirmed: number }[] = await ds.query(
          `SELECT count(*)::int AS stored, count(*) FILTER (WHERE state <> 'PENDING')::int AS signed,
                  count(*) FILTER (WHERE state = 'CONFIRMED')::int AS confirmed
           FROM settlement.settlements WHERE order_uuid = ANY($1)`,
          [payments.map((p) => p.orderUuid)],
        );
        for (const [name, n] of Object.entries(c ?? {}))
          if (n === ORDERS) phase[name] ??= Date.now() - started;
        return c?.confirmed === ORDERS;
      },
      { timeoutMs: 90_000, intervalMs: 100, description: `${ORDERS} settlements CONFIRMED` },
    );
    const seconds = (Date.now() - started) / 1000;

    // Every settlement of this database (ours, plus any other suite's payment that reached this
    // group) holds one nonce of one of the fresh wallets: per wallet exactly 0..n-1, and the chain agrees.
    const rows: { signer: string; nonce: string; tx_hash: string; n_txs: number }[] = await ds.query(
      `SELECT s.signer_address AS signer, s.nonce::text, s.tx_hash,
              (SELECT count(*)::int FROM settlement.settlement_transactions t WHERE t.order_uuid = s.order_uuid) AS n_txs
       FROM settlement.settlements s WHERE s.nonce IS NOT NULL ORDER BY s.signer_address, s.nonce`,
    );
    let gaps = 0;
    let duplicates = 0;
    const perSigner: number[] = [];
    const logs = [];
    for (const wallet of hotWallets) {
      const nonces = rows.filter((r) => r.signer === wallet.address).map((r) => Number(r.nonce));
      perSigner.push(nonces.length);
      gaps += (nonces.at(-1) ?? -1) + 1 - new Set(nonces).size;
      duplicates += nonces.length - new Set(nonces).size;
      expect(nonces).toEqual(Array.from({ length: nonces.length }, (_, i) => i));
      expect(await chain.provider.getTransactionCount(wallet.address, 'latest')).toBe(nonces.length);
      // On chain: one Transfer from the wallet per settlement it signed.
      logs.push(
        ...(await chain.provider.getLogs({
          address: chain.usdcAddress,
          fromBlock: 0,
          toBlock: 'latest',
          topics: [transferTopic, zeroPadValue(wallet.address, 32)],
        })),
      );
    }
    expect(rows.every((r) => hotWallets.some((w) => w.address === r.signer))).toBe(true);
    expect(rows.every((r) => r.n_txs === 1)).toBe(true); // automine: nothing got stuck, nothing replaced

    // One Transfer per settlement, one per order, of the right amount.
    expect(logs).toHaveLength(rows.length);
    expect(new Set(logs.map((l) => l.transactionHash))).toEqual(new Set(rows.map((r) => r.tx_hash)));
    const paidTo = new Map<string, number>();
    for (const l of logs) {
      const to = `0x${(l.topics[2] as string).slice(26)}`.toLowerCase();
      paidTo.set(to, (paidTo.get(to) ?? 0) + 1);
    }
    for (const [recipient, p] of expected) {
      expect(paidTo.get(recipient.toLowerCase())).toBe(1);
      expect(await chain.balanceOf(recipient)).toBe(BigInt(p.payedAmount.replace('.', '')) * 10692n); // cents x 1.0692e4 = base units
    }
    const succeeded = await waitFor(
      () => {
        const all = payments.map(
          (p) => new Set(h.collector.forOrder(Topics.TransferSucceeded, p.orderUuid).map((e) => e.id)),
        );
        return all.every((ids) => ids.size >= 1) ? all : undefined;
      },
      { timeoutMs: 30_000, description: 'transfer.succeeded for every order' },
    );
    expect(succeeded.every((ids) => ids.size === 1)).toBe(true); // one event per order (redeliveries keep its id)

    const [a, b] = work.map((tally) => Object.fromEntries(tally));
    process.stderr.write(
      `\n[settlement-workers] ${ORDERS} orders, 2 workers: ${seconds.toFixed(1)} s from publish to all CONFIRMED ` +
        `(${(ORDERS / seconds).toFixed(1)} tx/s; all stored after ${phase['stored']} ms, all signed after ${phase['signed']} ms); per signer ${perSigner.join('/')}, gaps ${gaps}, duplicates ${duplicates}; ` +
        `worker A ${JSON.stringify(a)}, worker B ${JSON.stringify(b)}\n`,
    );
    expect(gaps).toBe(0);
    expect(duplicates).toBe(0);
    expect(a?.['signed'] ?? 0).toBeGreaterThan(0); // both instances signed some of them, each with its own wallet
    expect(b?.['signed'] ?? 0).toBeGreaterThan(0);
  }, 180_000);
});
