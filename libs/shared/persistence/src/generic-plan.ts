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

export async function withGenericPlan<T>(manager: EntityManager, statement: () => Promise<T>): Promise<T> {
  if (!manager.queryRunner?.isTransactionActive) return statement();
  await writeWithNextStatement(manager, GENERIC, []);
  try {
    return await statement();
  } finally {
    await writeWithNextStatement(manager, DEFAULT, []);
  }
}

// For the transaction (set_config's third argument) as a prelude: sent in front of a statement outside
// an explicit transaction, the two are one implicit transaction that ends at their Sync, and so does
// the setting. It returns no rows, as a prelude must (set_config returns the value it set).
export const GENERIC_PLAN_PRELUDE: Prelude = {
  text: `SELECT 1 WHERE set_config('plan_cache_mode', $1, true) IS NULL`,
  values: ['force_generic_plan'],
};

// What `manager.query` is, with the statement run with its generic plan: in a transaction as
// withGenericPlan does it, and outside one with the setting sent in front of the statement in its
// round trip (GENERIC_PLAN_PRELUDE), so that a statement that commits alone (the webhook dispatcher's
// claim and record) is planned once per connection too.
export function genericPlan(manager: EntityManager): {
  query(sql: string, params?: unknown[]): Promise<unknown>;
} {
  return {
    query: async (sql, params = []) => {
      if (manager.queryRunner?.isTransactionActive)
        return withGenericPlan(manager, () => manager.query(sql, params));
      const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
      try {
        return await (queryWithPreludes(runner, [GENERIC_PLAN_PRELUDE], sql, params) ??
          runner.query(sql, params));
      } finally {
        if (runner !== manager.queryRunner) await runner.release();
      }
    },
  };
}
