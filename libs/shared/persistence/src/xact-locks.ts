import { EntityManager } from 'typeorm';

import { beforeNextStatement } from './begin-with-first-statement';
import { paramText } from './write-with-next-statement';

// Transaction-scoped Postgres advisory locks, named as their takers have always named them: the
// Postgres function and the hashing are the lock's identity, so a lock keeps its form for good (a
// rolling deploy runs old and new code side by side, and both must take the very same lock).
export type XactLockForm =
  | 'text' // pg_advisory_xact_lock(hashtext(name))
  | 'text-pair' // pg_advisory_xact_lock(hashtext(space), hashtext(name))
  | 'text-extended'; // pg_advisory_xact_lock(hashtextextended(name, 0))

export interface XactLock {
  form: XactLockForm;
  name: string;
  space?: string; // text-pair only
  shared?: boolean;
}

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

// One statement takes any number of locks, one after the other in the order given: unnest yields
// its rows in array order, and CASE calls only the function of its row's kind.
const FUNCTIONS: Record<string, string> = {
  text: 'pg_advisory_xact_lock(hashtext(l.name))',
  'text/shared': 'pg_advisory_xact_lock_shared(hashtext(l.name))',
  'text-pair': 'pg_advisory_xact_lock(hashtext(l.space), hashtext(l.name))',
  'text-pair/shared': 'pg_advisory_xact_lock_shared(hashtext(l.space), hashtext(l.name))',
  'text-extended': 'pg_advisory_xact_lock(hashtextextended(l.name, 0))',
  'text-extended/shared': 'pg_advisory_xact_lock_shared(hashtextextended(l.name, 0))',
};
const CASES = Object.entries(FUNCTIONS)
  .map(([kind, call]) => `WHEN '${kind}' THEN ${call}::text`)
  .join(' ');

// A query (one row, one column `taken`) that takes `locks`, its parameters numbered from
// `firstParam`: to be run alone, or joined into a statement that must hold the locks before it
// writes (EventConsumer's inbox insert). Locks are deduplicated (an exclusive one covers a shared one
// of the same key) and taken in one global order, so two transactions taking several never deadlock
// on them.
export function xactLocksQuery(
  locks: readonly XactLock[],
  firstParam = 1,
): { sql: string; params: [string[], string[], string[]] } {
  const ordered = orderedLocks(locks);
  const p = (i: number) => `$${firstParam + i}::text[]`;
  return {
    sql: `SELECT count(CASE l.kind ${CASES} END) AS taken FROM unnest(${p(0)}, ${p(1)}, ${p(2)}) AS l(kind, space, name)`,
    params: [
      ordered.map((l) => (l.shared ? `${l.form}/shared` : l.form)),
      ordered.map((l) => l.space ?? ''),
      ordered.map((l) => l.name),
    ],
  };
}

// What an event consumer took in its transaction's first statement, by the transaction's manager:
// a handler's own request for one of these locks then costs no round trip. Only locks taken at the
// transaction's top level are recorded (a savepoint rolled back would release its own).
const heldByTransaction = new WeakMap<object, Set<string>>();

export function noteXactLocksHeld(transaction: object, locks: readonly XactLock[]): void {
  let held = heldByTransaction.get(transaction);
  if (!held) heldByTransaction.set(transaction, (held = new Set()));
  for (const lock of locks) held.add(identity(lock, lock.shared === true));
}

// Takes the locks this transaction does not hold yet, in one statement (none when it holds them all).
export async function takeXactLocks(transaction: Queryable, locks: readonly XactLock[]): Promise<void> {
  const missing = notHeld(transaction, locks);
  if (missing.length === 0) return;
  const { sql, params } = xactLocksQuery(missing);
  await transaction.query(sql, params);
}

// The same, sent with the transaction's next statement instead of in a round trip of its own (see
// beforeNextStatement): for locks whose only purpose is that the next statement sees whatever their
// previous holder committed. Outside a transaction of ours, at once.
export async function takeXactLocksWithNextStatement(
  manager: EntityManager,
  locks: readonly XactLock[],
): Promise<void> {
  const missing = notHeld(manager, locks);
  if (missing.length === 0) return;
  const { sql, params } = xactLocksQuery(missing);
  const prelude = {
    text: `SELECT 1 FROM (${sql}) AS locks WHERE locks.taken < 0`,
    values: params.map(paramText),
  };
  if (!beforeNextStatement(manager.queryRunner, prelude)) await manager.query(sql, params);
}

function notHeld(transaction: object, locks: readonly XactLock[]): readonly XactLock[] {
  const held = heldByTransaction.get(transaction);
  if (!held) return locks;
  return locks.filter((l) => !held.has(identity(l, false)) && !(l.shared && held.has(identity(l, true))));
}

function identity(lock: XactLock, shared: boolean): string {
  return `${lock.form}\u0000${lock.space ?? ''}\u0000${lock.name}\u0000${shared ? 's' : 'x'}`;
}

function orderedLocks(locks: readonly XactLock[]): XactLock[] {
  const byKey = new Map<string, XactLock>();
  for (const lock of locks) {
    const key = identity(lock, false);
    const seen = byKey.get(key);
    if (!seen || (seen.shared && !lock.shared)) byKey.set(key, lock);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, lock]) => lock);
}
