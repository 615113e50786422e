import { BenchContext, settleDatabase } from '../bench-context';
import { median, sleep } from '../stats';

// Retries each waiting merchant has queued, due an hour from now: the shape of a merchant whose
// endpoint failed a while ago (docs/performance.md, Webhook dispatch).
const RETRIES_EACH = 3;

export interface WaitingRounds {
  merchants: number;
  retriesEach: number;
  ratios: number[]; // each round with merchants waiting against the mean of the rounds around it
  slowdown: number; // the median of the ratios
}

// P4 at scale: the healthy merchants' deliveries/s while thousands of other merchants each have a
// few deliveries waiting on retries that are not due yet, in pairs of rounds as the hanging endpoint's
// (a round with them, then one without). Before the per-merchant due bounds, every claim walked every
// merchant with a pending delivery, due or not (36-59 ms a claim with 8,000 of them); now a claim
// walks only the merchants whose bound has come, so the waiting ones should cost nothing.
// The first claim after they are queued walks each of them once (0.2-0.5 s): that claim takes the
// round's first deliveries, so it ends before the first arrival and stays out of the round's rate.
// `round` queues a round's deliveries and returns its deliveries/s; `before` is the round without
// merchants waiting that the first pair starts from.
export async function roundsWithMerchantsWaiting(
  ctx: BenchContext,
  round: () => Promise<number>,
  before: number,
  pairs: number,
): Promise<WaitingRounds> {
  const merchants = ctx.size(8000, 200);
  const alone = [before];
  const waiting: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    await queueWaiting(ctx, merchants);
    ctx.log(`P4: ${await firstWalk(ctx, merchants)}`);
    await settleDatabase(ctx);
    waiting.push(await round());
    ctx.log(`P4: ${waiting[pair].toFixed(0)} deliveries/s while ${merchants} merchants wait on retries`);
    await removeWaiting(ctx);
    await settleDatabase(ctx);
    alone.push(await round());
    ctx.log(`P4: ${alone[pair + 1].toFixed(0)} deliveries/s, none waiting`);
  }
  const ratios = waiting.map((w, i) => w / ((alone[i] + alone[i + 1]) / 2));
  return { merchants, retriesEach: RETRIES_EACH, ratios, slowdown: median(ratios) };
}

// The new merchants' bounds start due, so the dispatcher's next claim walks each of them once, and
// raises it to its retry: how long until none is left due, from the commit of their rows (the
// dispatcher is not woken by rows written behind its back: its safety-net poll, every 250 ms, finds them).
async function firstWalk(ctx: BenchContext, merchants: number): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhooks.merchant_due WHERE due_at <= now()`,
    );
    if (rows[0].n === 0)
      return `the ${merchants} waiting merchants walked once, within ${Date.now() - t0} ms`;
    if (Date.now() - t0 > 60_000) return `${rows[0].n} merchants still due after 60 s`;
    await sleep(10);
  }
}

// Merchants of the bench's own making, written straight into the webhook service's tables as its
// endpoint registration and event handler would: an endpoint each (on a port nothing listens on;
// nothing is sent before the hour is up) and RETRIES_EACH deliveries tried once and due in an hour.
async function queueWaiting(ctx: BenchContext, merchants: number): Promise<void> {
  await ctx.db.query(
    `WITH m AS (
       INSERT INTO webhooks.endpoints (merchant_id, url, secret_enc)
       SELECT gen_random_uuid(), 'http://127.0.0.1:9/bench-waiting', 'bench-waiting' FROM generate_series(1, $1::int)
       RETURNING merchant_id
     )
     INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, attempts,
                                      next_attempt_at, last_status_code)
     SELECT gen_random_uuid(), gen_random_uuid(), m.merchant_id, 'order.completed', gen_random_uuid(),
            '{"event":"order.completed","bench":true}', 'PENDING', 1, now() + interval '1 hour', 503
     FROM m CROSS JOIN generate_series(1, $2::int)`,
    [merchants, RETRIES_EACH],
  );
}

async function removeWaiting(ctx: BenchContext): Promise<void> {
  await ctx.db.query(
    `DELETE FROM webhooks.deliveries WHERE merchant_id IN
       (SELECT merchant_id FROM webhooks.endpoints WHERE secret_enc = 'bench-waiting')`,
  );
  await ctx.db.query(`DELETE FROM webhooks.endpoints WHERE secret_enc = 'bench-waiting'`);
}
