import { DataSource } from 'typeorm';

import { migratedUpTo } from '../testing/migrated-up-to';

// The lease moves to a column of its own and back: going down, a delivery in flight keeps its lease
// in next_attempt_at, where the code before this migration reads it.
describe('migration DeliveryLeaseColumn1767226300000 (integration)', () => {
  let ds: DataSource | undefined;

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });

  it('adds lease_until with room for HOT updates, and goes down and up again', async () => {
    ds = await migratedUpTo('DeliveryLeaseColumn1767226300000');
    const options = async () =>
      ((await ds!.query(`SELECT reloptions FROM pg_class WHERE oid = 'webhooks.deliveries'::regclass`))[0]
        .reloptions ?? []) as string[];
    expect(await options()).toContain('fillfactor=70');

    const insert = (lease: string | null) =>
      ds!.query(
        `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, attempts,
                                          next_attempt_at, lease_until)
         VALUES (gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'order.completed', gen_random_uuid(), '{}',
                 'PENDING', 1, now() - interval '1 second', now() + $1::interval)
         RETURNING id`,
        [lease],
      );
    const [leased] = await insert('40 seconds');
    const [due] = await insert(null);
    const dueInS = async (id: string) =>
      Number(
        (
          await ds!.query(
            `SELECT extract(epoch FROM next_attempt_at - now()) AS s FROM webhooks.deliveries WHERE id = $1`,
            [id],
          )
        )[0].s,
      );

    await ds.undoLastMigration();
    expect(await dueInS(leased.id)).toBeGreaterThan(30);
    expect(await dueInS(due.id)).toBeLessThan(0);
    const [{ column }] = await ds.query(
      `SELECT count(*)::int AS column FROM information_schema.columns
       WHERE table_schema = 'webhooks' AND table_name = 'deliveries' AND column_name = 'lease_until'`,
    );
    expect(column).toBe(0);
    expect(await options()).not.toContain('fillfactor=70');

    await ds.runMigrations();
    expect(await options()).toContain('fillfactor=70');
  });
});
