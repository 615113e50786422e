import { randomUUID } from 'node:crypto';

import { DataSource, EntityManager } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { SERVICE_DATABASE } from '../database';
import { deliveryFixtures, freshDelivery } from '../testing/delivery-fixtures';
import { FinishedAttempt, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

// The dispatcher's statements against the real schema: the fair claim, and what one statement does
// to each delivery of a mixed set of results, claimed and stale.
describe('WebhookDeliveriesRepository, the dispatcher statements (real Postgres)', () => {
  let db: DataSource;
  const repo = new WebhookDeliveriesRepository();

  beforeAll(async () => {
    // the run's Postgres, from the integration global setup
    const url = await createDatabase(loadInfraConfig().databaseUrl as string);
    db = await openServiceDataSource({ ...SERVICE_DATABASE, url });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  // A delivery as a claim leaves it: attempts bumped to `attempts`, due and leased into the future.
  const delivery = async (status: string, attempts: number): Promise<string> => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, attempts,
                                        next_attempt_at, lease_until)
       VALUES ($1, gen_random_uuid(), gen_random_uuid(), 'order.completed', gen_random_uuid(), '{}', $2, $3,
               CASE WHEN $2 = 'PENDING' THEN now() - interval '1 second' END,
               CASE WHEN $2 = 'PENDING' THEN now() + interval '40 seconds' END)`,
      [id, status, attempts],
    );
    return id;
  };
  // dueInMs: when the delivery may next be claimed, its lease included.
  const row = async (id: string) =>
    (
      await db.query<
        {
          status: string;
          attempts: number;
          lastStatusCode: number | null;
          lastError: string | null;
          delivered: boolean;
          dueInMs: number | null;
        }[]
      >(
        `SELECT status, attempts, last_status_code AS "lastStatusCode", last_error AS "lastError",
                delivered_at IS NOT NULL AS delivered,
                (extract(epoch FROM GREATEST(next_attempt_at, lease_until) - now()) * 1000)::int AS "dueInMs"
         FROM webhooks.deliveries WHERE id = $1`,
        [id],
      )
    )[0];
  const loggedAttempts = async (id: string) =>
    db.query<{ attemptNo: number; statusCode: number | null }[]>(
      `SELECT attempt_no AS "attemptNo", status_code AS "statusCode" FROM webhooks.delivery_attempts
       WHERE delivery_id = $1 ORDER BY attempt_no`,
      [id],
    );
  const ok = (id: string, attemptNo: number): FinishedAttempt => ({
    id,
    attemptNo,
    statusCode: 200,
    error: null,
    durationMs: 3,
    next: { kind: 'delivered' },
  });
  const failed = (id: string, attemptNo: number, next: FinishedAttempt['next']): FinishedAttempt => ({
    id,
    attemptNo,
    statusCode: 503,
    error: 'HTTP 503',
    durationMs: 5,
    next,
  });

  const { merchant, queue } = deliveryFixtures(() => db);

  it('claims each merchant its free share, oldest first, never a disabled or not-yet-due one', async () => {
    const [busy, idle, gone, later] = [
      await merchant(),
      await merchant(),
      await merchant(true),
      await merchant(),
    ];
    const busyIds = await queue(busy, 10, -100);
    const idleIds = await queue(idle, 3);
    await queue(gone, 3);
    await queue(later, 3, 60);

    // busy already holds 2 of its 4: it gets its 2 oldest; idle all of its 3.
    const claims = await repo.claimDue(db.manager, {
      limit: 10,
      perMerchant: 4,
      inFlight: { merchantIds: [busy], counts: [2] },
      leaseMs: 40_000,
    });
    expect(claims.map((c) => c.id).sort()).toEqual([...busyIds.slice(0, 2), ...idleIds].sort());
    expect(claims.every((c) => c.attemptNo === 1 && c.url === 'http://127.0.0.1:1/hooks')).toBe(true);
    // Leased: not claimed again until the lease runs out; the rest of busy's share is next.
    const again = await repo.claimDue(db.manager, {
      limit: 1,
      perMerchant: 4,
      inFlight: { merchantIds: [], counts: [] },
      leaseMs: 40_000,
    });
    expect(again.map((c) => c.id)).toEqual([busyIds[2]]);
  });

  // A run of order events in one consumer batch records its deliveries in one statement: each as
  // insertOnce would have, one after another.
  it('inserts a run of deliveries in one statement, each as it would alone', async () => {
    const [shop, off, none] = [await merchant(), await merchant(true), randomUUID()];
    const seen = freshDelivery(shop);
    await repo.insertOnce(db.manager, seen);
    const run = [
      freshDelivery(shop, 40_000), // claimed for the caller
      freshDelivery(shop), // due now, for any dispatcher
      freshDelivery(off, 40_000), // a disabled endpoint: waits, never claimed
      freshDelivery(none, 40_000), // no endpoint yet
      { ...freshDelivery(shop, 40_000), eventId: seen.eventId }, // a redelivered event: nothing inserted
    ];
    const claims = await db.transaction((m) => repo.insertManyOnce(m, run));
    expect(claims).toEqual([
      expect.objectContaining({ id: run[0]!.id, attemptNo: 1, url: 'http://127.0.0.1:1/hooks' }),
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const state = async (id: string) => {
      const r = await row(id);
      return r && { status: r.status, attempts: r.attempts, leased: (r.dueInMs ?? 0) > 30_000 };
    };
    expect(await state(run[0]!.id)).toEqual({ status: 'PENDING', attempts: 1, leased: true });
    expect(await state(run[1]!.id)).toEqual({ status: 'PENDING', attempts: 0, leased: false });
    expect(await state(run[2]!.id)).toMatchObject({ status: 'DISABLED', attempts: 0 });
    expect(await state(run[3]!.id)).toMatchObject({ status: 'NO_ENDPOINT', attempts: 0 });
    expect(await row(run[4]!.id)).toBeUndefined();
  });

  it("locks only the rows it takes, so a claim beside it gets the merchant's others", async () => {
    const m = await merchant();
    const ids = await queue(m, 12, -50);
    const ofM = (claims: { id: string; merchantId: string }[]): string[] =>
      claims
        .filter((c) => c.merchantId === m)
        .map((c) => c.id)
        .sort();
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      // this worker holds 8 of the merchant's 10: it takes the 2 oldest, and its transaction stays open
      const first = await repo.claimDue(runner.manager, {
        limit: 100,
        perMerchant: 10,
        inFlight: { merchantIds: [m], counts: [8] },
        leaseMs: 40_000,
      });
      expect(ofM(first)).toEqual(ids.slice(0, 2).sort());
      // another worker meanwhile: SKIP LOCKED passes over those 2 only, not the merchant's whole cap
      const second = await repo.claimDue(db.manager, {
        limit: 100,
        perMerchant: 10,
        inFlight: { merchantIds: [], counts: [] },
        leaseMs: 40_000,
      });
      expect(ofM(second)).toEqual(ids.slice(2, 12).sort());
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  // With many merchants each holding a few due deliveries, the claim reads every merchant's share
  // but locks only what its limit takes: locking every share before the limit (8,000 merchants with 3
  // due each: 24,000 rows locked and 1.3 MB of WAL to claim 100) hid the rest from a claim beside it.
  it('locks only what its limit takes across merchants, so a claim beside it gets the others', async () => {
    const shops = [];
    for (let i = 0; i < 12; i++) shops.push(await merchant());
    const due = new Set<string>();
    for (const [i, shop] of shops.entries()) for (const id of await queue(shop, 3, -10_000 + i)) due.add(id); // older than earlier tests' rows
    const claim = async (manager: EntityManager, limit: number): Promise<string[]> =>
      (
        await repo.claimDue(manager, {
          limit,
          perMerchant: 10,
          inFlight: { merchantIds: [], counts: [] },
          leaseMs: 40_000,
        })
      )
        .map((c) => c.id)
        .filter((id) => due.has(id));
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const first = await claim(runner.manager, 5); // its transaction stays open
      expect(first).toHaveLength(5);
      const second = await claim(db.manager, 1_000);
      expect(second).toHaveLength(31);
      expect(new Set([...first, ...second])).toEqual(due);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
      await db.query(`DELETE FROM webhooks.deliveries WHERE id = ANY($1)`, [[...due]]); // not left due for later tests
    }
  });

  // Every index of the deliveries table takes an entry at each insert and at each update that is not
  // HOT (the record of a result, which moves the status): the table keeps only the ones a statement reads.
  it('keeps only the indexes its statements read', async () => {
    const indexes = await db.query<{ name: string }[]>(
      `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'webhooks' AND tablename = 'deliveries'
       ORDER BY indexname`,
    );
    expect(indexes.map((i) => i.name)).toEqual([
      'deliveries_by_merchant', // the merchant's list, newest first
      'deliveries_event_id_key', // one delivery per event
      'deliveries_pending_by_merchant', // the claim
      'deliveries_pkey',
    ]);
  });

  // The claim writes only lease_until and attempts, which no index holds: with room on the page (the
  // table's fillfactor keeps some), Postgres updates the row in place of a new index entry in each of
  // the four indexes. The backend's counters show it (read before and after: they also hold what its
  // earlier transactions did until they are flushed to the shared statistics).
  it('claims with HOT updates, writing no index entry', async () => {
    const m = await merchant();
    await queue(m, 5);
    await db.transaction(async (tx) => {
      const counters = async (): Promise<{ updated: number; hot: number }> =>
        (
          await tx.query(
            `SELECT pg_stat_get_xact_tuples_updated('webhooks.deliveries'::regclass)::int AS updated,
                    pg_stat_get_xact_tuples_hot_updated('webhooks.deliveries'::regclass)::int AS hot`,
          )
        )[0];
      const before = await counters();
      const claims = await repo.claimDue(tx, {
        limit: 100, // earlier tests' merchants may have due ones left
        perMerchant: 5,
        inFlight: { merchantIds: [], counts: [] },
        leaseMs: 40_000,
      });
      const after = await counters();
      expect(claims.filter((c) => c.merchantId === m)).toHaveLength(5);
      expect({ updated: after.updated - before.updated, hot: after.hot - before.hot }).toEqual({
        updated: claims.length,
        hot: claims.length,
      });
    });
  });

  // Statistics taken during a backlog (most rows pending) had given the claim's update a hash join
  // over the whole table: every claim read every row, however few it took.
  it('reaches the rows it takes by primary key whatever the statistics say', async () => {
    const shops = [await merchant(), await merchant(), await merchant(), await merchant()];
    try {
      for (const shop of shops) await queue(shop, 1000);
      await db.query('ANALYZE webhooks.deliveries');
      await db.transaction(async (tx) => {
        const scans = async (): Promise<number> =>
          (
            await tx.query(
              `SELECT seq_scan::int AS n FROM pg_stat_xact_user_tables WHERE relid = 'webhooks.deliveries'::regclass`,
            )
          )[0].n;
        const before = await scans();
        const claims = await repo.claimDue(tx, {
          limit: 167,
          perMerchant: 128,
          inFlight: { merchantIds: shops, counts: shops.map(() => 47) },
          leaseMs: 40_000,
        });
        expect(claims.filter((c) => shops.includes(c.merchantId))).toHaveLength(167);
        expect(await scans()).toBe(before);
      });
    } finally {
      await db.query(`DELETE FROM webhooks.deliveries WHERE merchant_id = ANY($1)`, [shops]); // not left due
    }
  });

  it('hands unsent claims back, due at once, unless claimed again meanwhile', async () => {
    const current = await delivery('PENDING', 1);
    const reclaimed = await delivery('PENDING', 2);
    await repo.handBack(db.manager, [
      { id: current, attemptNo: 1 },
      { id: reclaimed, attemptNo: 1 },
    ]);
    expect((await row(current)).dueInMs).toBeLessThanOrEqual(0);
    expect((await row(current)).attempts).toBe(1);
    expect((await row(reclaimed)).dueInMs).toBeGreaterThan(30_000);
  });

  it('moves each current claim on in one statement and only logs a stale one', async () => {
    const delivered = await delivery('PENDING', 1);
    const retried = await delivery('PENDING', 2);
    const dead = await delivery('PENDING', 9);
    const stale = await delivery('PENDING', 3); // claimed again since attempt 2
    const disabledThenDelivered = await delivery('DISABLED', 1); // a 410 disabled it mid-send
    const disabledThenFailed = await delivery('DISABLED', 1);

    await repo.recordFinished(db.manager, [
      ok(delivered, 1),
      failed(retried, 2, { kind: 'retry', delayMs: 5000 }),
      failed(dead, 9, { kind: 'dead' }),
      ok(stale, 2),
      ok(disabledThenDelivered, 1),
      failed(disabledThenFailed, 1, { kind: 'retry', delayMs: 5000 }),
    ]);

    expect(await row(delivered)).toMatchObject({
      status: 'DELIVERED',
      delivered: true,
      dueInMs: null,
      lastStatusCode: 200,
      lastError: null,
    });
    const r = await row(retried);
    expect(r).toMatchObject({ status: 'PENDING', attempts: 2, lastStatusCode: 503, lastError: 'HTTP 503' });
    expect(r.dueInMs).toBeGreaterThan(4000);
    expect(r.dueInMs).toBeLessThanOrEqual(5000);
    expect(await row(dead)).toMatchObject({ status: 'DEAD', dueInMs: null, lastStatusCode: 503 });
    // The stale claim's answer is in the log, the delivery stays with its current claim.
    const s = await row(stale);
    expect(s).toMatchObject({ status: 'PENDING', attempts: 3, lastStatusCode: null, delivered: false });
    expect(s.dueInMs).toBeGreaterThan(30_000);
    expect(await loggedAttempts(stale)).toEqual([{ attemptNo: 2, statusCode: 200 }]);
    expect(await row(disabledThenDelivered)).toMatchObject({ status: 'DELIVERED', delivered: true });
    expect(await row(disabledThenFailed)).toMatchObject({
      status: 'DISABLED',
      dueInMs: null,
      lastStatusCode: 503,
    });
    for (const id of [delivered, retried, dead, disabledThenDelivered, disabledThenFailed])
      expect(await loggedAttempts(id)).toHaveLength(1);
  });

  // The dispatcher records up to 512 results in one statement, and more at shutdown. Its statement
  // with a CTE joined to a CTE took 166 ms for 2,000 results and 20.9 s for 8,000 (0.1 and 0.5 s now);
  // docs/performance-journal.md, "P4's stalls".
  it('records a large batch in one statement, every delivery moved on', async () => {
    const ids = await queue(await merchant(), 2_000);
    await db.query(`UPDATE webhooks.deliveries SET attempts = 1 WHERE id = ANY($1::uuid[])`, [ids]);
    await repo.recordFinished(
      db.manager,
      ids.map((id) => ok(id, 1)),
    );
    const [{ delivered, logged }] = await db.query<{ delivered: number; logged: number }[]>(
      `SELECT count(*) FILTER (WHERE d.status = 'DELIVERED' AND d.lease_until IS NULL)::int AS delivered,
              count(a.delivery_id)::int AS logged
       FROM webhooks.deliveries d LEFT JOIN webhooks.delivery_attempts a ON a.delivery_id = d.id
       WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
    expect({ delivered, logged }).toEqual({ delivered: 2_000, logged: 2_000 });
  });

  it('keeps an attempt logged once when the same result is recorded twice', async () => {
    const id = await delivery('PENDING', 1);
    await repo.recordFinished(db.manager, [failed(id, 1, { kind: 'retry', delayMs: 1000 })]);
    await repo.recordFinished(db.manager, [failed(id, 1, { kind: 'retry', delayMs: 1000 })]);
    expect(await loggedAttempts(id)).toEqual([{ attemptNo: 1, statusCode: 503 }]);
  });

  it('refuses the whole batch when one value cannot be stored, changing nothing', async () => {
    const good = await delivery('PENDING', 1);
    const bad = await delivery('PENDING', 1);
    await expect(
      repo.recordFinished(db.manager, [
        ok(good, 1),
        { ...failed(bad, 1, { kind: 'retry', delayMs: 1000 }), error: 'nul \u0000 byte' },
      ]),
    ).rejects.toThrow();
    expect(await row(good)).toMatchObject({ status: 'PENDING', delivered: false });
    expect(await loggedAttempts(good)).toEqual([]);
  });

  // Over their arrays Postgres planned the claim and the record again at every call, for longer than
  // they ran (P2, docs/performance-journal.md): each commits alone, with its generic plan.
  it('plans the claim and the record once per connection', async () => {
    const one = await openServiceDataSource({
      ...SERVICE_DATABASE,
      url: (db.options as { url: string }).url,
      migrations: [],
      poolSize: 1, // prepared statements are the connection's
    });
    try {
      const shop = await merchant();
      await queue(shop, 8);
      for (let i = 0; i < 8; i++) {
        const [claim] = await repo.claimDue(one.manager, {
          limit: 1,
          perMerchant: 4,
          inFlight: { merchantIds: [shop], counts: [i % 3] },
          leaseMs: 40_000,
        });
        await repo.recordFinished(one.manager, [ok(claim.id, claim.attemptNo)]);
      }
      const plans = await one.query(
        `SELECT left(statement, 14) AS statement, generic_plans::int AS generic, custom_plans::int AS custom
         FROM pg_prepared_statements WHERE statement LIKE 'WITH used (merchant_id%' OR statement LIKE 'WITH r AS (%'
         ORDER BY statement`,
      );
      expect(plans).toEqual([
        { statement: 'WITH r AS (\n  ', generic: 8, custom: 0 },
        { statement: 'WITH used (mer', generic: 8, custom: 0 },
      ]);
      expect((await one.query('SHOW plan_cache_mode'))[0].plan_cache_mode).toBe('auto');
    } finally {
      await one.destroy();
    }
  });
});
