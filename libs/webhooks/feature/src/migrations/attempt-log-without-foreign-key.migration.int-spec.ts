import { DataSource } from 'typeorm';

import { migratedUpTo } from '../testing/migrated-up-to';

// The attempt log loses its foreign key (a trigger's lookup per logged attempt), and gets it back
// going down.
describe('migration AttemptLogWithoutForeignKey1767226400000 (integration)', () => {
  let ds: DataSource | undefined;

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });

  it('drops the foreign key, and goes down and up again', async () => {
    ds = await migratedUpTo('AttemptLogWithoutForeignKey1767226400000');
    const foreignKeys = async (): Promise<number> =>
      (
        await ds!.query(
          `SELECT count(*)::int AS n FROM pg_constraint
           WHERE conrelid = 'webhooks.delivery_attempts'::regclass AND contype = 'f'`,
        )
      )[0].n;
    expect(await foreignKeys()).toBe(0);
    // an attempt of an existing delivery is logged as before
    await ds.query(
      `WITH d AS (
         INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status)
         VALUES (gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'order.completed', gen_random_uuid(),
                 '{}', 'DELIVERED')
         RETURNING id
       )
       INSERT INTO webhooks.delivery_attempts (delivery_id, attempt_no, status_code, duration_ms)
       SELECT id, 1, 200, 3 FROM d`,
    );

    await ds.undoLastMigration();
    expect(await foreignKeys()).toBe(1);
    await ds.runMigrations();
    expect(await foreignKeys()).toBe(0);
  });
});
