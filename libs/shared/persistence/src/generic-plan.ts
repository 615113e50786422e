import { EntityManager } from 'typeorm';

import { Prelude, queryWithPreludes } from './begin-with-first-statement';
import { writeWithNextStatement } from './write-with-next-statement';

// Runs `statement` (one prepared statement of the caller's transaction) with Postgres's generic plan,
// planned once per connection, instead of a plan made for each call's parameters.
//
// A prepared statement over arrays (`unnest($1::text[], ...)`) is planned again at every call:
// Postgres compares its generic plan, which assumes ten elements an array, with the custom plans it
// made for the first calls, which knew the arrays held two or three, so the generic one always looks
// dearer. For payment-ingest's run of `order.created` references that planning cost more than the
// statement's execution (0.44 against 0.27 ms a call, docs/performance-journal.md, P1). The setting is only
// per session or per transaction, and forced everywhere it would also give a generic plan to a
// statement whose good plan depends on a parameter (`$1 IS NULL OR merchant_id = $1`), so it is set
// for this statement alone: set for the transaction in front of it and back to the session's default
// in front of the transaction's next statement (or its COMMIT), both in round trips that go out anyway.
// Outside a transaction there is nothing to scope it to: the statement runs as it is (genericPlan,
// below, is the way for a statement that runs alone).
//
// Both settings in one statement each way, so the sequential scans cost no round trip and no
// statement of their own: set_config with the transaction's scope (third argument), and with NULL
// back to the session's default (what `SET LOCAL ... TO DEFAULT` does). No rows, as a write sent
// with the next statement must return none.
const PLAN_SETTINGS = `SELECT 1 WHERE (set_config('plan_cache_mode', $1, true) || set_config('enable_seqscan', $2, true)) IS NULL`;
const GENERIC = 'force_generic_plan';
const CUSTOM = 'force_custom_plan';
const NO_SEQSCAN = 'off';

// How a statement is planned besides its generic plan. Sequential scans are off unless `seqScan` is
// true: every statement run here with its generic plan reaches each row it reads by a key or an index
// range, per row of its arrays, and its plan is made once per connection, maybe while a table held a
// handful of rows, and kept until the next ANALYZE of what it reads. Made then with sequential scans,
// it reads that table whole, once per row of the set in a nested loop, after the table has grown
// (webhooks' claim, 2026-12-03: 3-7 s a claim; the payment of an order read every order, a soak of
// 5,000 orders; docs/performance-journal.md). Without them, such a plan may merge-join over a whole
// index instead, so a statement that joins a table by the keys of an array also filters that table
// by the array itself (`AND s.order_uuid = ANY($1::uuid[])`), redundant as it looks: then no plan
// reads more than those rows.
export interface PlanOptions {
  seqScan?: boolean;
}

// PLAN_SETTINGS' values for a generic plan with `options`.
const genericSettings = (options: PlanOptions): [string, string | null] => [
  GENERIC,
  options.seqScan ? null : NO_SEQSCAN,
];

export function withGenericPlan<T>(
  manager: EntityManager,
  statement: () => Promise<T>,
  options: PlanOptions = {},
): Promise<T> {
  return withPlanSettings(manager, genericSettings(options), statement);
}

// The other way round: `statement` planned at each call, for its parameters and the tables as they
// are then, never with a plan kept from earlier calls. For a lookup by a GIN index that runs for most
// events: Postgres soon keeps one plan for it, and one made while the table was small reads the
// table, or an index of it, whole at every call after (payments' credits waiting for a reference:
// 1,372 of 1,500 calls in a soak, docs/performance-journal.md, 2026-12-03). A generic plan without
// sequential scans is no cure there: its estimate for an array's unknown element is no better, and it
// takes a whole index instead. Planning costs about a tenth of a millisecond a call.
export function withCustomPlan<T>(manager: EntityManager, statement: () => Promise<T>): Promise<T> {
  return withPlanSettings(manager, [CUSTOM, null], statement);
}

async function withPlanSettings<T>(
  manager: EntityManager,
  settings: [string, string | null],
  statement: () => Promise<T>,
): Promise<T> {
  if (!manager.queryRunner?.isTransactionActive) return statement();
  await writeWithNextStatement(manager, PLAN_SETTINGS, settings);
  try {
    return await statement();
  } finally {
    await writeWithNextStatement(manager, PLAN_SETTINGS, [null, null]);
  }
}

// For the transaction (set_config's third argument) as a prelude: sent in front of a statement outside
// an explicit transaction, the two are one implicit transaction that ends at their Sync, and so does
// the setting. It returns no rows, as a prelude must (set_config returns the value it set).
export const GENERIC_PLAN_PRELUDE: Prelude = {
  text: `SELECT 1 WHERE set_config('plan_cache_mode', $1, true) IS NULL`,
  values: ['force_generic_plan'],
};

// GENERIC_PLAN_PRELUDE with the sequential scans of PlanOptions.
const planPrelude = (options: PlanOptions): Prelude => ({
  text: PLAN_SETTINGS,
  values: genericSettings(options),
});

// What `manager.query` is, with the statement run with its generic plan: in a transaction as
// withGenericPlan does it, and outside one with the setting sent in front of the statement in its
// round trip (GENERIC_PLAN_PRELUDE), so that a statement that commits alone (the webhook dispatcher's
// claim and record) is planned once per connection too.
export function genericPlan(
  manager: EntityManager,
  options: PlanOptions = {},
): {
  query(sql: string, params?: unknown[]): Promise<unknown>;
} {
  const prelude = planPrelude(options);
  return {
    query: async (sql, params = []) => {
      if (manager.queryRunner?.isTransactionActive)
        return withGenericPlan(manager, () => manager.query(sql, params), options);
      const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
      try {
        return await (queryWithPreludes(runner, [prelude], sql, params) ?? runner.query(sql, params));
      } finally {
        if (runner !== manager.queryRunner) await runner.release();
      }
    },
  };
}
