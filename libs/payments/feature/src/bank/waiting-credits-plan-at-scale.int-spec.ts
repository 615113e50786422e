import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { PAYMENTS_SCHEMA } from '../config';
import { SERVICE_DATABASE } from '../database';
import { BankTransactionsRepository } from './bank-transactions.repository';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

// When credits overtake their orders, the order.created of almost every order looks up the credits
// waiting for its reference. Postgres soon kept one plan for those lookups, made while the table was
// small, that read every credit ever booked at each call after (a soak of 1,500 orders: 1,372 whole
// reads). They are planned at each call (withCustomPlan), with the GIN index of unmatched credits as
// their one way in: this spec looks them up while the table holds two credits, lets it grow to
// thousands without a new ANALYZE, and reads the plans a call then makes, not their time.
describe('credits waiting for a reference, looked up after the table has grown (real Postgres)', () => {
  let ds: DataSource;
  const repo = new BankTransactionsRepository();
  const merchant = randomUUID();
  const reference = () => `RF${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;

  // `count` credits of the merchant, each naming its own reference, in one statement
  const insertCredits = (
    count: number,
    fields: { source: string; matchStatus: string; suspenseReason: string | null },
    references?: string[],
  ) =>
    ds.query(
      `INSERT INTO payments.bank_transactions (id, merchant_id, source, candidate_references, reference_raw, amount,
                                               currency, payer_name, status, match_status, matched_order_uuid,
                                               suspense_reason)
       SELECT gen_random_uuid(), $1, $2, ARRAY[r], r, 10, 'EUR', 'sealed', 'BOOKED', $3,
              CASE WHEN $3 = 'MATCHED' THEN gen_random_uuid() END, $4
       FROM unnest($5::text[]) AS r`,
      [
        merchant,
        fields.source,
        fields.matchStatus,
        fields.suspenseReason,
        references ?? Array.from({ length: count }, reference),
      ],
    );
  const matched = { source: 'SANDBOX', matchStatus: 'MATCHED', suspenseReason: null };
  const waiting = { source: 'SANDBOX', matchStatus: 'UNMATCHED', suspenseReason: null };
  const early = { source: 'STATEMENT', matchStatus: 'UNMATCHED', suspenseReason: 'UNKNOWN_REFERENCE' };

  const lookUp = (waitingFor: string, earlyFor: string) =>
    ds.transaction(async (m) => ({
      waiting: (await repo.findWaitingForUpdate(m, merchant, waitingFor)).map((c) => c.referenceRaw),
      early: (await repo.findEarlyStatementCreditsForUpdate(m, earlyFor)).map((c) => c.referenceRaw),
    }));

  // The plan a call of the prepared statement whose text holds `marker` makes for `args`.
  const callPlan = async (marker: string, args: string): Promise<PlanNode> => {
    const runner = ds.createQueryRunner();
    try {
      await runner.startTransaction();
      const [{ name }] = await runner.query(
        `SELECT name FROM pg_prepared_statements WHERE statement LIKE $1`,
        [`%${marker}%`],
      );
      // as withCustomPlan sets it
      await runner.query(`SELECT set_config('plan_cache_mode', 'force_custom_plan', true)`);

      const [{ 'QUERY PLAN': explained }] = await runner.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE "${name}"(${args})`,
      );
      return (explained as { Plan: PlanNode }[])[0].Plan;
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  };
  // every credit the plan looked at, those its filters then dropped too
  const creditsRead = (plan: PlanNode) => {
    const read = nodesOf(plan).filter(
      (n) => n['Relation Name'] === 'bank_transactions' && n['Node Type'] !== 'LockRows',
    );
    return {
      scans: read.map((n) => n['Node Type']),
      rows: read.reduce(
        (sum, n) =>
          sum + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1),
        0,
      ),
    };
  };

  beforeAll(async () => {
    // one connection: the prepared statements, and so their plans, are the connection's
    ds = await openServiceDataSource({
      url: await createDatabase(loadInfraConfig().databaseUrl as string),
      schema: PAYMENTS_SCHEMA,
      entities: [],
      migrations: SERVICE_DATABASE.migrations as Array<new () => object> as never,
      poolSize: 1,
    });
    // the statistics stay those of a new deployment, whatever autovacuum would do meanwhile
    await ds.query(`ALTER TABLE payments.bank_transactions SET (autovacuum_enabled = false)`);
    await insertCredits(1, matched);
    await insertCredits(1, waiting);
    await ds.query('VACUUM (ANALYZE) payments.bank_transactions');
  });
  afterAll(async () => ds?.destroy());

  it('reaches the credits naming the reference through the index, however many were booked since', async () => {
    // more calls than Postgres makes custom plans for before it keeps a generic one
    for (let i = 0; i < 8; i++)
      expect(await lookUp(reference(), reference())).toEqual({ waiting: [], early: [] });
    const kept = await ds.query(
      `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
       WHERE statement LIKE '%candidate_references @> ARRAY[%' AND statement LIKE '%FOR UPDATE'`,
    );
    expect(kept).toEqual([
      { generic: 0, custom: 8 },
      { generic: 0, custom: 8 },
    ]);
    await insertCredits(5000, matched);
    await insertCredits(200, early);
    const [waitingFor, earlyFor] = [reference(), reference()];
    await insertCredits(1, waiting, [waitingFor]);
    await insertCredits(1, early, [earlyFor]);

    expect(await lookUp(waitingFor, earlyFor)).toEqual({ waiting: [waitingFor], early: [earlyFor] });
    const plans = [
      await callPlan(`t.merchant_id IS NOT DISTINCT FROM $1`, `'${merchant}', '${waitingFor}'`),
      await callPlan(`t.suspense_reason IS NOT DISTINCT FROM 'UNKNOWN_REFERENCE'`, `'${earlyFor}'`),
    ];
    for (const plan of plans) {
      const { scans, rows } = creditsRead(plan);
      expect(scans).not.toContain('Seq Scan');
      expect(rows).toBeLessThanOrEqual(5);
    }
  });
});
