import { Wallet } from 'ethers';

import { localProvider } from '@onramp/chain';

import { BenchContext, Row, settleDatabase, waitQuiet } from '../bench-context';
import { blockPacking, chainHead, formatPacking } from '../chain-blocks';
import { createOrders, credit, openMerchant, webhookTimes } from '../bench-merchant';
import {
  cpuShares,
  cpuSnapshot,
  formatCpu,
  formatCpuPerItem,
  machineBusy,
  machineSnapshot,
} from '../process-cpu';
import { anvilDevKey, fundWithUsdc, RAW_SIGNER_KEY, rawSigner } from '../raw-chain';
import { sleep } from '../stats';

// Chain-settlement processes of the distributed run: 1 (the platform's own), then 2, then 4.
const SIGNER_STEPS = [2, 4];
// The further processes sign with anvil dev accounts 4, 5, 6 (each funded with test USDC here).
const FURTHER_SIGNER_ACCOUNTS = [4, 5, 6];
const USDC_PER_SIGNER = 10n ** 12n; // 1,000,000 USDC, as the platform's own hot wallet gets
// Kafka rebalances the consumer group when a process joins; the burst starts after it settled.
const REBALANCE_WAIT_MS = 5_000;

// Runs of the raw signer: one that waited on anvil's pool race (a transaction held back, replaced
// after a second) measured anvil, not the signer, and is run again.
const RAW_ATTEMPTS = 3;

// P3's baseline: `count` USDC transfers signed locally and sent at once by one raw signer, per second
// until the last is mined.
async function rawSignerBaseline(
  ctx: BenchContext,
  count: number,
): Promise<{ perSecond: number; note?: string }> {
  const { signer, close } = await rawSigner(ctx.platform.env, RAW_SIGNER_KEY);
  try {
    const to = Wallet.createRandom().address;
    let stalled = 0;
    // The raw signer signs in the bench's own process; anvil and Postgres are counted with the host.
    const roles = { 'raw signer': process.pid };
    for (let attempt = 1; ; attempt++) {
      const r0 = Date.now();
      const cpuBefore = cpuSnapshot(ctx.hostPid, roles);
      const machineBefore = machineSnapshot();
      const { replaced } = await signer.sendAll(await signer.sign(count, to, 10_000_000n));
      const perSecond = count / ((Date.now() - r0) / 1000);
      if (replaced === 0 || attempt === RAW_ATTEMPTS) {
        // What the baseline itself costs the machine: the CPU a payout of the platform has left at
        // half its rate (ticks of 10 ms over a fraction of a second: a rough figure).
        const busy = machineBusy(machineBefore, machineSnapshot());
        ctx.log(
          `P3 baseline: machine ${busy.toFixed(0)} % busy; CPU per transfer (ms): ${formatCpuPerItem(cpuBefore, cpuSnapshot(ctx.hostPid, roles), count)}`,
        );
        const held = replaced > 0 ? ', the last one too' : '';
        const note = [
          stalled > 0 ? `raw signer run again after anvil held a transaction ${stalled}x${held}` : undefined,
          `raw signer's machine ${busy.toFixed(0)} % busy`,
        ]
          .filter(Boolean)
          .join('; ');
        return { perSecond, note };
      }
      stalled++;
      ctx.log(`P3 baseline: anvil's pool held a transaction back (replaced); running the baseline again`);
    }
  } finally {
    close();
  }
}

// P3: a burst of credits sent at once; payouts/s from the first credit to the last webhook, against
// one raw signer (local signing, every raw transaction sent at once, same chain) doing as many
// USDC transfers. In distributed mode, then the same burst with 2 and 4 chain-settlement processes,
// each signing with a key of its own, against the one-signer figure; and for each number of signers
// a drain: the same number of settlements waiting PENDING (the bench holds every signer lease while
// the credits come in), timed from releasing the leases to the last webhook, so the signers are
// measured without the credit path in front of them.
export async function probePayoutBurst(ctx: BenchContext): Promise<Row[]> {
  const count = ctx.size(500, 10);
  const drainCount = ctx.size(DRAIN_COUNT, 10);
  // A full run comes here after P2's thousands of payouts. Alone (`--only P3`), the platform had paid none:
  // its first burst ran cold (distributed 119-138 payouts/s against 225-309 for the next bursts, and the
  // 2-signer row read x1.95-2.31 against that), so a burst of its own first, not counted.
  if (!ctx.opts.only.has('P2') && !ctx.opts.smoke) {
    const warm = await burst(ctx, count, 1);
    ctx.log(`P3: warm-up burst, 1 signer: ${warm.perSecond.toFixed(0)} payouts/s (not counted)`);
  }
  const one = await burst(ctx, count, 1);
  const oneDrain = ctx.opts.distributed ? await burst(ctx, drainCount, 1, { drain: true }) : undefined;

  await waitQuiet(ctx);
  ctx.log(`P3 baseline: one raw signer, ${count} transfers`);
  const raw = await rawSignerBaseline(ctx, count);
  const rows: Row[] = [
    {
      probe: 'P3',
      metric: `burst of ${count}: payouts/s (1 signer)`,
      unit: '/s',
      value: one.perSecond,
      baseline: raw.perSecond,
      baselineLabel: 'one raw signer, pipelined',
      higherIsBetter: true,
      note: [one.note, one.stage, raw.note].filter(Boolean).join('; '),
      target: { ratioAtLeast: 0.5 },
    },
  ];
  if (!oneDrain) return rows;
  const drainRow = (signers: number, r: BurstResult, baseline: number): Row => ({
    probe: 'P3',
    metric: `drain of ${drainCount} PENDING: payouts/s (${signers} signer${signers > 1 ? 's' : ''})`,
    unit: '/s',
    value: r.perSecond,
    baseline,
    baselineLabel: signers > 1 ? 'the same drain, 1 signer' : 'one raw signer, pipelined',
    higherIsBetter: true,
    note: [r.note, r.stage].filter(Boolean).join('; '),
  });
  rows.push(drainRow(1, oneDrain, raw.perSecond));

  const keys = FURTHER_SIGNER_ACCOUNTS.map(anvilDevKey);
  await fundWithUsdc(ctx.platform.env, keys, USDC_PER_SIGNER);
  let processes = 1;
  for (const signers of SIGNER_STEPS) {
    for (; processes < signers; processes++) {
      const instance = String(processes + 1);
      ctx.log(`P3: starting chain-settlement-${instance} with a signer of its own`);
      await ctx.startApp('chain-settlement', instance, {
        SETTLEMENT_SIGNER_KEY: keys[processes - 1] as string,
      });
    }
    await sleep(REBALANCE_WAIT_MS);
    // The processes just started run their first payouts cold (V8 still compiling the payout path:
    // `--only P3` ran at two-thirds of a warm platform's pace), where the one signer they are compared
    // with has paid P2's and P3's thousands. One drain of their own first, not counted.
    const warmCount = ctx.size(WARM_UP_DRAIN, 0);
    if (warmCount > 0) {
      const warm = await burst(ctx, warmCount, signers, { drain: true });
      ctx.log(`P3: warm-up drain, ${signers} signers: ${warm.perSecond.toFixed(0)} payouts/s (not counted)`);
    }
    const n = await burst(ctx, count, signers);
    const drained = await burst(ctx, drainCount, signers, { drain: true });
    rows.push({
      probe: 'P3',
      metric: `burst of ${count}: payouts/s (${signers} signers)`,
      unit: '/s',
      value: n.perSecond,
      baseline: one.perSecond,
      baselineLabel: 'the same burst, 1 signer',
      higherIsBetter: true,
      note: [n.note, n.stage].filter(Boolean).join('; '),
      // the curve: 2 signers at least 1.6 times one (4 signers has no mark of its own)
      target: signers === 2 ? { ratioAtLeast: 1.6 } : undefined,
    });
    rows.push(drainRow(signers, drained, oneDrain.perSecond));
  }
  return rows;
}

// A drain is timed from releasing the held leases, and each process takes a free signer at its next
// lease heartbeat (SETTLEMENT_LEASE_HEARTBEAT_MS, 2 s): with 500 PENDING, which one signer drained in
// 1.7-4 s, the processes that took theirs last found little left (per signer 150/250/50/50 with
// four), and the drain measured when each process woke more than how fast N signers pay. 2,000
// makes that skew a small part of the drain.
const DRAIN_COUNT = 2000;
// Payouts each newly started set of processes makes before it is timed (skipped under --smoke).
const WARM_UP_DRAIN = 1000;

interface BurstResult {
  perSecond: number;
  note?: string;
  stage: string;
}

const BENCH_HOLDER = 'bench: held until the settlements wait';

// Takes every signer lease over (as a process would take an expired one): the chain-settlement
// processes stop signing at once (each signing transaction checks its lease) and wait as spares.
async function holdSigners(ctx: BenchContext): Promise<void> {
  await ctx.db.query(
    `UPDATE settlement.signer_leases SET holder = $1, acquired_at = now(), expires_at = now() + interval '1 hour'`,
    [BENCH_HOLDER],
  );
}

// Lets the leases expire: each process takes a signer at its next heartbeat.
async function releaseSigners(ctx: BenchContext): Promise<void> {
  await ctx.db.query(`UPDATE settlement.signer_leases SET expires_at = now() WHERE holder = $1`, [
    BENCH_HOLDER,
  ]);
}

async function pendingOf(ctx: BenchContext, orderUuids: string[]): Promise<number> {
  const { rows } = await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM settlement.settlements WHERE order_uuid = ANY($1::uuid[]) AND state = 'PENDING'`,
    [orderUuids],
  );
  return rows[0]?.n ?? 0;
}

// One burst: `count` orders created beforehand, their credits sent 16 at a time, timed from the
// first credit to the last webhook.
// With `drain`, the signers are held while the credits come in, and the clock starts when they are
// released with every settlement PENDING.
async function burst(
  ctx: BenchContext,
  count: number,
  signers: number,
  opts: { drain?: boolean } = {},
): Promise<BurstResult> {
  const kind = opts.drain ? 'drain' : 'burst';
  const merchant = await openMerchant(ctx.platform, `Bench P3 ${kind} (${signers} signers)`);
  ctx.log(`P3: creating ${count} orders to pay`);
  const orders = await createOrders(merchant, count);
  await waitQuiet(ctx);
  ctx.log(`P3: ${await settleDatabase(ctx)}`); // as P2 and P4: not beside the vacuuming of earlier writes
  if (opts.drain) await holdSigners(ctx);

  ctx.log(`P3 ${kind}: ${count} credits at once (${signers} signer${signers > 1 ? 's' : ''})`);
  // the whole credit path with the payouts (embedded only, so one signer and no drain)
  const counts = await ctx.countWindow('P3', `${kind} of ${count}, ${signers} signer(s)`, 'payout');
  const chain = localProvider(ctx.platform.env.RPC_URL as string);
  let t0 = Date.now();
  let firstBlock = await chainHead(chain);
  // CPU over the timed window: whether the machine had a core to spare for more signers
  let cpuBefore = cpuSnapshot(ctx.hostPid);
  let machineBefore = machineSnapshot();
  const failures: string[] = [];
  let sent = 0;
  const workers = Array.from({ length: 16 }, async () => {
    while (sent < orders.length) {
      const order = orders[sent++];
      await credit(ctx.platform, merchant, order.reference).catch(
        (err: Error) => void failures.push(err.message),
      );
    }
  });
  await Promise.all(workers);
  const creditsS = (Date.now() - t0) / 1000;
  if (opts.drain) {
    const uuids = orders.map((o) => o.uuid);
    const waitUntil = Date.now() + ctx.size(180_000, 30_000);
    while ((await pendingOf(ctx, uuids)) < count - failures.length && Date.now() < waitUntil)
      await sleep(200);
    ctx.log(`P3 drain: ${await pendingOf(ctx, uuids)} settlements PENDING; releasing the signers`);
    t0 = Date.now();
    firstBlock = await chainHead(chain);
    cpuBefore = cpuSnapshot(ctx.hostPid);
    machineBefore = machineSnapshot();
    await releaseSigners(ctx);
  }
  const deadline = Date.now() + ctx.size(180_000, 30_000);
  let lastReport = Date.now();
  while (webhookTimes(merchant).size < count - failures.length && Date.now() < deadline) {
    await sleep(100);
    if (Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      ctx.log(`P3: ${webhookTimes(merchant).size}/${count} webhooks in`);
    }
  }
  const busy = machineBusy(machineBefore, machineSnapshot());
  const cpuAfter = cpuSnapshot(ctx.hostPid);
  const label = `P3 ${kind} (${signers} signer${signers > 1 ? 's' : ''})`;
  ctx.log(
    `${label}: machine ${busy.toFixed(0)} % busy; CPU by process (share of one core): ${formatCpu(cpuShares(cpuBefore, cpuAfter))}`,
  );
  // beside the raw signer's CPU per transfer (its baseline's log line): what a payout costs the machine
  ctx.log(`${label}: CPU per payout (ms): ${formatCpuPerItem(cpuBefore, cpuAfter, count)}`);
  const packing = await blockPacking(chain, firstBlock, await chainHead(chain));
  chain.destroy();
  const times = [...webhookTimes(merchant).values()];
  const done = times.length;
  const elapsedS = (Math.max(...times, t0 + 1) - t0) / 1000;
  await waitQuiet(ctx);
  await counts.end(done);
  return {
    perSecond: done / elapsedS,
    note: [
      done < count ? `${count - done} webhooks missing` : undefined,
      opts.drain ? undefined : `credits sent in ${creditsS.toFixed(1)} s`,
      `machine ${busy.toFixed(0)} % busy`,
      formatPacking(packing),
    ]
      .filter(Boolean)
      .join('; '),
    stage: await settlementStage(
      ctx,
      orders.map((o) => o.uuid),
      opts.drain ? t0 : undefined,
    ),
  };
}

// The settlement stage alone, from the rows' own timestamps (first settlement row stored -> last one
// CONFIRMED), and how the payouts were shared among the signers: "settled 31/s; per signer 131/122".
// Tells whether the signers or the rest of the credit path limited the burst. Transactions replaced
// (no receipt for SETTLEMENT_STUCK_AFTER_SECONDS: a node that left a nonce unmined) are named too: one
// such stall costs a minute and is otherwise visible only in the platform's log.
// `since`: the clock of a drain starts when the signers were released, not when the rows were stored.
async function settlementStage(ctx: BenchContext, orderUuids: string[], since?: number): Promise<string> {
  const { rows } = await ctx.db.query<{ signer: string | null; n: number; first: Date; last: Date | null }>(
    `SELECT signer_address AS signer, count(*)::int AS n, min(created_at) AS first,
            max(updated_at) FILTER (WHERE state = 'CONFIRMED') AS last
     FROM settlement.settlements WHERE order_uuid = ANY($1::uuid[])
     GROUP BY signer_address ORDER BY signer_address`,
    [orderUuids],
  );
  const first = since ?? Math.min(...rows.map((r) => r.first.getTime()));
  const last = Math.max(...rows.map((r) => r.last?.getTime() ?? 0));
  const confirmed = rows.reduce((sum, r) => sum + (r.last ? r.n : 0), 0);
  const rate = last > first ? (confirmed / ((last - first) / 1000)).toFixed(1) : '?';
  const { rows: replaced } = await ctx.db.query<{ n: number }>(
    `SELECT (count(*) - count(DISTINCT order_uuid))::int AS n
     FROM settlement.settlement_transactions WHERE order_uuid = ANY($1::uuid[])`,
    [orderUuids],
  );
  const stuck = replaced[0]?.n ? `; ${replaced[0].n} transactions replaced (stuck)` : '';
  return `settled ${rate}/s; per signer ${rows.map((r) => r.n).join('/')}${stuck}`;
}
