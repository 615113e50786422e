import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { SERVICE_DATABASE } from '../database';
import { deliveryFixtures, freshDelivery } from '../testing/delivery-fixtures';
import { ClaimRequest, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

// The claim walks only the merchants whose due bound has come (see the migration MerchantDueBounds):
// the bound may only ever be late by being early. Every write that makes a delivery due sooner must
// reach the next claim, also one that commits while a claim is reading.
describe('merchant due bounds, kept by the claim and the triggers (real Postgres)', () => {
  let db: DataSource;
  const repo = new WebhookDeliveriesRepository();
  const { merchant, queue } = deliveryFixtures(() => db);

  beforeAll(async () => {
    // a database of its own: the bounds of other specs' merchants stay out of these figures
    const url = await createDatabase(loadInfraConfig().databaseUrl as string);
    db = await openServiceDataSource({ ...SERVICE_DATABASE, url });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const request: ClaimRequest = {
    limit: 100,
    perMerchant: 8,
    inFlight: { merchantIds: [], counts: [] },
    leaseMs: 40_000,
  };
  const claimIds = async (manager = db.manager): Promise<string[]> =>
    (await repo.claimDue(manager, request)).map((c) => c.id).sort();
  // Seconds from now to the merchant's bound (null: no row), and its hints left.
  const bound = async (merchantId: string): Promise<{ inS: number | null; hints: number }> => {
    const [row] = await db.query<{ inS: number | null; hints: number }[]>(
      `SELECT (SELECT CASE WHEN due_at = 'infinity' THEN 1e9 ELSE extract(epoch FROM due_at - now()) END
               FROM webhooks.merchant_due WHERE merchant_id = $1)::float AS "inS",
              (SELECT count(*) FROM webhooks.merchant_due_hints WHERE merchant_id = $1)::int AS hints`,
      [merchantId],
    );
    return row!;
  };
  it('starts a merchant due with its endpoint, and raises it to its earliest delivery once nothing is due', async () => {
    const later = await merchant();
    await queue(later, 3, 60);
    const leased = await merchant();
    const ids = await queue(leased, 2);
    expect(await bound(later)).toEqual({ inS: expect.any(Number), hints: 1 });
    expect((await bound(later)).inS).toBeLessThan(-1e6); // -infinity

    expect(await claimIds()).toEqual(ids.sort()); // walks both; later has nothing due yet
    expect((await bound(later)).inS).toBeGreaterThan(59);
    expect((await bound(later)).inS).toBeLessThan(61);
    expect((await bound(later)).hints).toBe(1); // its insert's, due in a minute: read then, not now
    expect(await bound(leased)).toEqual({ inS: expect.any(Number), hints: 0 }); // its due hint folded in
    expect((await bound(leased)).inS).toBeLessThan(0); // it had something to take: left as it was

    expect(await claimIds()).toEqual([]); // leased's two are in flight: raised to their lease
    expect((await bound(leased)).inS).toBeGreaterThan(39);
    expect((await bound(leased)).inS).toBeLessThan(41);
  });

  it('sends a merchant with no active endpoint and nothing pending to infinity, until its endpoint changes', async () => {
    const off = await merchant(true);
    await claimIds();
    expect(await bound(off)).toEqual({ inS: 1e9, hints: 0 });
    await db.query(`UPDATE webhooks.endpoints SET disabled_at = NULL WHERE merchant_id = $1`, [off]);
    expect((await bound(off)).inS).toBeLessThan(-1e6);
  });

  // Each write that makes a delivery due sooner, made after the merchant's bound was raised past it.
  it('wakes a raised merchant on every write that makes a delivery due sooner', async () => {
    const m = await merchant();
    const raised = async () => {
      await claimIds();
      expect((await bound(m)).inS).toBeGreaterThan(30);
    };

    // a new delivery, due now
    await queue(m, 1, 3_600); // keeps the merchant pending, an hour away
    await raised();
    const inserted = freshDelivery(m);
    await repo.insertOnce(db.manager, inserted);
    const [first] = await repo.claimDue(db.manager, request);
    expect(first?.id).toBe(inserted.id);

    // a retry recorded sooner than the lease it replaces
    await raised(); // to the lease of the delivery just claimed
    await repo.recordFinished(db.manager, [
      {
        id: first!.id,
        attemptNo: first!.attemptNo,
        statusCode: 503,
        error: 'HTTP 503',
        durationMs: 5,
        next: { kind: 'retry', delayMs: 0 },
      },
    ]);
    const [second] = await repo.claimDue(db.manager, request);
    expect(second?.id).toBe(inserted.id);

    // a claim handed back unsent
    await raised();
    await repo.handBack(db.manager, [{ id: second!.id, attemptNo: second!.attemptNo }]);
    const [third] = await repo.claimDue(db.manager, request);
    expect(third?.id).toBe(inserted.id);

    // a manual redelivery of a delivered one
    await repo.recordFinished(db.manager, [
      {
        id: third!.id,
        attemptNo: third!.attemptNo,
        statusCode: 200,
        error: null,
        durationMs: 2,
        next: { kind: 'delivered' },
      },
    ]);
    await raised(); // to the delivery an hour away
    await repo.restart(db.manager, inserted.id);
    expect(await claimIds()).toEqual([inserted.id]);
  });

  // The race the hints exist for: the claim reads without the delivery (not yet committed, or committed
  // after its snapshot) and raises the bound past it; the delivery's hint is not among what that claim
  // deletes, so the next claim walks the merchant.
  it('claims a delivery that committed while a claim was reading, at the next claim', async () => {
    const m = await merchant();
    await queue(m, 1, 3_600);
    const late = freshDelivery(m);

    // committed after the claim's snapshot (a repeatable-read transaction holds it from its first read)
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction('REPEATABLE READ');
    try {
      await runner.query('SELECT 1');
      await repo.insertOnce(db.manager, late);
      expect(await claimIds(runner.manager)).toEqual([]);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    expect((await bound(m)).inS).toBeGreaterThan(3_000); // raised past the delivery it did not see
    expect(await claimIds()).toEqual([late.id]);

    // not committed yet while the claim ran
    const pending = freshDelivery(m);
    await claimIds(); // raised again, to the hour away
    await db.transaction(async (tx) => {
      await repo.insertOnce(tx, pending);
      expect(await claimIds()).toEqual([]);
    });
    expect(await claimIds()).toEqual([pending.id]);
  });

  // A delivery handed over to its inserter's process is due when that lease runs out (the process may
  // die before sending it): its hint waits for then, not walked and not deleted before.
  it('claims a handed-over delivery when its lease runs out, though its merchant was raised past it', async () => {
    const m = await merchant();
    await queue(m, 1, 3_600);
    await claimIds();
    expect((await bound(m)).inS).toBeGreaterThan(3_000);
    const handed = freshDelivery(m);
    expect(await repo.insertOnce(db.manager, handed, 300)).toMatchObject({ id: handed.id, attemptNo: 1 });
    expect(await claimIds()).toEqual([]);
    expect((await bound(m)).hints).toBe(2); // the hand-over's, and the first delivery's an hour away
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await claimIds()).toEqual([handed.id]);
  });

  // What the bounds are for: merchants waiting on a retry cost a claim nothing once raised.
  it('walks a waiting merchant once, not at every claim', async () => {
    const waiting: string[] = [];
    for (let i = 0; i < 200; i++) waiting.push(await merchant());
    await db.query(
      `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, next_attempt_at)
       SELECT gen_random_uuid(), gen_random_uuid(), m, 'order.completed', gen_random_uuid(), '{}', 'PENDING',
              now() + interval '1 hour'
       FROM unnest($1::uuid[]) AS m, generate_series(1, 3)`,
      [waiting],
    );
    await claimIds();
    const [{ walked }] = await db.query<{ walked: number }[]>(
      `SELECT count(*)::int AS walked FROM webhooks.merchant_due
       WHERE merchant_id = ANY($1) AND due_at <= now() + interval '59 minutes'`,
      [waiting],
    );
    expect(walked).toBe(0);
    // their inserts' hints, one a merchant, wait for the hour too
    const [{ hints }] = await db.query<{ hints: number }[]>(
      `SELECT count(*)::int AS hints FROM webhooks.merchant_due_hints
       WHERE merchant_id = ANY($1) AND due_at > now() + interval '59 minutes'`,
      [waiting],
    );
    expect(hints).toBe(200);
  });

  // Claims side by side lock the bounds and the hints SKIP LOCKED, raise a bound only under its
  // version and delete only the hints they read: whatever they skip or race for, every delivery
  // written while they run is taken, and taken once.
  it('takes every delivery once with four claims side by side while deliveries keep arriving', async () => {
    const shops: string[] = [];
    for (let i = 0; i < 60; i++) shops.push(await merchant());
    const taken = new Map<string, number>();
    let writing = true;
    const claimer = async (): Promise<void> => {
      let idle = 0;
      while (writing || idle < 3) {
        const claims = await repo.claimDue(db.manager, { ...request, limit: 25, perMerchant: 4 });
        for (const c of claims) taken.set(c.id, (taken.get(c.id) ?? 0) + 1);
        await repo.recordFinished(
          db.manager,
          claims.map((c) => ({
            id: c.id,
            attemptNo: c.attemptNo,
            statusCode: 200,
            error: null,
            durationMs: 1,
            next: { kind: 'delivered' as const },
          })),
        );
        idle = claims.length === 0 ? idle + 1 : 0;
      }
    };
    const written: string[] = [];
    const writer = async (): Promise<void> => {
      for (let wave = 0; wave < 20; wave++) {
        // a few merchants at a time, some due now and some a moment from now
        for (const shop of shops.filter((_, i) => (i + wave) % 7 === 0))
          written.push(...(await queue(shop, 2, wave % 2 === 0 ? -1 : 0.05)));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 100)); // the last ones come due
      writing = false;
    };
    await Promise.all([writer(), claimer(), claimer(), claimer(), claimer()]);

    expect(written.length).toBeGreaterThan(300);
    expect([...taken.values()].filter((n) => n !== 1)).toEqual([]);
    expect(written.filter((id) => !taken.has(id))).toEqual([]);
  });
});
