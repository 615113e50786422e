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
// for this statement alone: `SET LOCAL` in front of it and back to the session's default in front of
// the transaction's next statement (or its COMMIT), both in round trips that go out anyway.
// Outside a transaction there is nothing to scope it to: the statement runs as it is (genericPlan,
// below, is the way for a statement that runs alone).
const GENERIC = 'SET LOCAL plan_cache_mode = force_generic_plan';
const DEFAULT = 'SET LOCAL plan_cache_mode TO DEFAULT';
const NO_SEQSCAN = 'SET LOCAL enable_seqscan = off';
const SEQSCAN_DEFAULT = 'SET LOCAL enable_seqscan TO DEFAULT';

// How a statement is planned besides its generic plan. `seqScan: false` is for a statement that
// reaches every row it reads by a key or an index range, per row of a set that can grow from a
// handful to thousands between two ANALYZEs: its generic plan, made while a table held a few rows,
// would otherwise read that table whole once per row of the set (webhooks' claim, 2026-12-03).
export interface PlanOptions {
  seqScan?: false;
}

export async function withGenericPlan<T>(
  manager: EntityManager,
  statement: () => Promise<T>,
  options: PlanOptions = {},
): Promise<T> {
  if (!manager.queryRunner?.isTransactionActive) return statement();
  await writeWithNextStatement(manager, GENERIC, []);
  if (options.seqScan === false) await writeWithNextStatement(manager, NO_SEQSCAN, []);
  try {
    return await statement();
  } finally {
    await writeWithNextStatement(manager, DEFAULT, []);
    if (options.seqScan === false) await writeWithNextStatement(manager, SEQSCAN_DEFAULT, []);
  }
}

// For the transaction (set_config's third argument) as a prelude: sent in front of a statement outside
// an explicit transaction, the two are one implicit transaction that ends at their Sync, and so does
// the setting. It returns no rows, as a prelude must (set_config returns the value it set).
export const GENERIC_PLAN_PRELUDE: Prelude = {
  text: `SELECT 1 WHERE set_config('plan_cache_mode', $1, true) IS NULL`,
  values: ['force_generic_plan'],
};

// The same with sequential scans off (PlanOptions): both settings are evaluated, joined into one value.
const GENERIC_PLAN_NO_SEQSCAN_PRELUDE: Prelude = {
  text: `SELECT 1 WHERE (set_config('plan_cache_mode', $1, true) || set_config('enable_seqscan', $2, true)) IS NULL`,
  values: ['force_generic_plan', 'off'],
};

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
  const prelude = options.seqScan === false ? GENERIC_PLAN_NO_SEQSCAN_PRELUDE : GENERIC_PLAN_PRELUDE;
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
