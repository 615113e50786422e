import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { SERVICE_DATABASE } from '../database';
import { OrdersRepository } from './orders.repository';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

// The statements the consumers run over arrays are planned once per connection (withGenericPlan) and
// the plan is kept until the next ANALYZE of what they read. The payment of an order, planned on a
// fresh deployment while the orders table held two rows, had a sequential scan of the orders in a
// nested loop with the payments, and kept it while the table grew: in a soak of 5,000 orders, the
// orders were read whole 900 times. Every statement planned that way is planned with sequential
// scans off, and reaches the orders by their key however few there were. This spec reads the plan
// of the prepared statement the repository made, not its time.
describe('the payment of orders, planned while the orders were few (real Postgres)', () => {
  let db: DataSource;
  const repo = new OrdersRepository();
  const merchantId = randomUUID();

  const insertOrders = async (count: number): Promise<string[]> => {
    const rows = await db.query<Array<{ uuid: string }>>(
      `INSERT INTO orders.orders (uuid, merchant_id, kyc_user_uuid, amount, currency, recipient_address, reference,
                                  iban, bic, status)
       SELECT gen_random_uuid(), $1, gen_random_uuid(), 10, 'EUR', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
              'RF' || replace(gen_random_uuid()::text, '-', ''), 'DE89370400440532013000', 'COBADEFFXXX', 'CREATED'
       FROM generate_series(1, $2::int)
       RETURNING uuid`,
      [merchantId, count],
    );
    return rows.map((r) => r.uuid);
  };
  const pay = (uuids: string[]) =>
    db.transaction((m) =>
      repo.recordPayments(
        m,
        uuids.map((uuid) => ({ uuid, merchantId, payedAmount: '10.00', payerAccountHolderName: 'sealed' })),
        new Date(),
      ),
    );

  beforeAll(async () => {
    const url = await createDatabase(loadInfraConfig().databaseUrl as string);
    // one connection: the prepared statement, and so the plan, are the connection's
    db = await openServiceDataSource({ ...SERVICE_DATABASE, url, poolSize: 1 });
    // the statistics stay those of a new deployment, whatever autovacuum would do meanwhile
    await db.query(`ALTER TABLE orders.orders SET (autovacuum_enabled = false)`);
    await insertOrders(2);
    await db.query('VACUUM (ANALYZE) orders.orders');
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('reaches the orders it pays by their key after the table has grown', async () => {
    const [first] = await insertOrders(1);
    expect((await pay([first!]))[0]).toBeDefined(); // planned here, with three orders
    const paid = (await insertOrders(5000)).slice(0, 10);

    const runner = db.createQueryRunner();
    let plan: PlanNode;
    try {
      await runner.startTransaction();
      const [{ name }] = await runner.query(
        `SELECT name FROM pg_prepared_statements WHERE statement LIKE '%UPDATE "orders"."orders" SET payed_amount%'`,
      );
      // as withGenericPlan sets them, should the plan be made again here
      await runner.query(`SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`);
      await runner.query(`SELECT set_config('enable_seqscan', 'off', true)`);
      // EXECUTE takes literals, not bind parameters
      const list = (values: string[]) => `'{${values.join(',')}}'`;
      const args = [
        list(paid),
        list(paid.map(() => merchantId)),
        list(paid.map(() => '10.00')),
        list(paid.map(() => 'sealed')),
        `'${new Date().toISOString()}'`,
      ].join(', ');
      const [{ 'QUERY PLAN': explained }] = await runner.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE "${name}"(${args})`,
      );
      plan = (explained as { Plan: PlanNode }[])[0].Plan;
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }

    const ordersRead = nodesOf(plan).filter(
      (n) => n['Relation Name'] === 'orders' && n['Node Type'] !== 'ModifyTable',
    );
    expect(ordersRead.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    const rowsRead = ordersRead.reduce(
      (sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1),
      0,
    );
    expect(rowsRead).toBeLessThanOrEqual(paid.length);
    // and what it answers is unchanged: each order paid once
    expect((await pay(paid)).every((facts) => facts !== undefined)).toBe(true);
  });
});
