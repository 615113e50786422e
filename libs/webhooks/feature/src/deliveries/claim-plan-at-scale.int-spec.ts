import { DataSource, QueryRunner } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { SERVICE_DATABASE } from '../database';
import { deliveryFixtures } from '../testing/delivery-fixtures';
import { ClaimRequest, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

interface PlanNode {
  'Node Type': string;
  Filter?: string;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

// The claim's generic plan is made once per connection and kept until the statistics change. One made
// while few merchants had a bound, run when thousands come due at once (the first claim after the
// migration's backfill, or after a restart with deliveries for thousands of merchants queued
// meanwhile), had joined two of the statement's CTEs by a nested loop: every merchant walked compared
// with every other (5.2 s at 8,000 merchants), and the delete of the hints had filtered each due
// hint through the array of the merchants moved (0.2 s at 8,000). The statement now carries what it
// needs from CTE to CTE instead of joining them, and deletes hints by the ctids it read. This spec
// reads the plan's shape, not its time: a join filter or an array filter would grow with the square
// of the merchants.
describe('the claim at scale, planned while the tables were small (real Postgres)', () => {
  const MERCHANTS = 1000;
  let db: DataSource;
  let runner: QueryRunner;
  const repo = new WebhookDeliveriesRepository();
  const { merchant } = deliveryFixtures(() => db);
  const request: ClaimRequest = {
    limit: 100,
    perMerchant: 8,
    inFlight: { merchantIds: [], counts: [] },
    leaseMs: 40_000,
  };

  beforeAll(async () => {
    const url = await createDatabase(loadInfraConfig().databaseUrl as string);
    // one connection: the prepared statement, and so the plan, are the connection's
    db = await openServiceDataSource({ ...SERVICE_DATABASE, url, poolSize: 1 });
    // A few merchants with a history of delivered webhooks, as the statistics knew them; they stay
    // the statistics whatever autovacuum would do meanwhile.
    for (const table of ['deliveries', 'endpoints', 'merchant_due', 'merchant_due_hints'])
      await db.query(`ALTER TABLE webhooks.${table} SET (autovacuum_enabled = false)`);
    for (let i = 0; i < 4; i++) {
      await db.query(
        `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, attempts,
                                          next_attempt_at, delivered_at)
         SELECT gen_random_uuid(), gen_random_uuid(), $1, 'order.completed', gen_random_uuid(), '{}', 'DELIVERED', 1,
                NULL, now()
         FROM generate_series(1, 2500)`,
        [await merchant()],
      );
    }
    await db.query('VACUUM (ANALYZE)');
  });
  afterAll(async () => {
    if (runner && !runner.isReleased) await runner.release();
    await db?.destroy();
  });

  // Merchants with an endpoint and a delivery tried once, due an hour from now.
  const waitingMerchants = async (count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await merchant());
    await db.query(
      `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, attempts, next_attempt_at)
       SELECT gen_random_uuid(), gen_random_uuid(), m, 'order.completed', gen_random_uuid(), '{}', 'PENDING', 1,
              now() + interval '1 hour'
       FROM unnest($1::uuid[]) AS m`,
      [ids],
    );
    return ids;
  };

  it('walks thousands of merchants come due at once without comparing them with one another', async () => {
    const dueSoon = await merchant();
    await repo.claimDue(db.manager, request); // planned here, with one merchant
    const raised = await waitingMerchants(MERCHANTS);
    await repo.claimDue(db.manager, request); // walks them, raises them an hour
    await waitingMerchants(MERCHANTS); // new: due at -infinity, walked and raised by the next claim
    // a delivery come due for each raised merchant (a hint each) and one more merchant
    await db.query(
      `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, next_attempt_at)
       SELECT gen_random_uuid(), gen_random_uuid(), m, 'order.completed', gen_random_uuid(), '{}', 'PENDING', now()
       FROM unnest($1::uuid[]) AS m`,
      [[...raised, dueSoon]],
    );

    runner = db.createQueryRunner();
    await runner.startTransaction();
    const [{ name }] = await runner.query(
      `SELECT name FROM pg_prepared_statements WHERE statement LIKE 'WITH used (merchant_id%'`,
    );
    // as the claim plans it, should the plan be made again here
    await runner.query('SET LOCAL plan_cache_mode = force_generic_plan');
    await runner.query('SET LOCAL enable_seqscan = off');
    // EXECUTE takes literals, not bind parameters
    const args = `${request.limit}, ${request.perMerchant}, '{}', '{}', ${request.leaseMs}`;
    const [{ 'QUERY PLAN': plan }] = await runner.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE "${name}"(${args})`,
    );
    await runner.rollbackTransaction();
    await runner.release(); // the one connection, for the claim below

    const nodes = nodesOf((plan as { Plan: PlanNode }[])[0].Plan);
    const comparedInJoins = nodes.reduce((n, node) => n + (node['Rows Removed by Join Filter'] ?? 0), 0);
    expect(comparedInJoins).toBeLessThan(MERCHANTS);
    expect(nodes.filter((node) => /ANY \(\(?(InitPlan|SubPlan|\$)/.test(node.Filter ?? ''))).toEqual([]);
    // and the plan did the work: every merchant walked, due ones claimed (rolled back above)
    expect((await repo.claimDue(db.manager, request)).length).toBe(request.limit);
  });
});
