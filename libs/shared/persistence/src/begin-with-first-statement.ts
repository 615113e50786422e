import { Query, QueryResult } from 'pg';
import type { Client } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';

import { statementNamesOf } from './prepared-statements';

// A transaction's BEGIN travels with its first statement instead of alone (and so may a lock).
//
// TypeORM starts a transaction with a round trip of its own (START TRANSACTION, then wait), before
// the first statement. On the payout path a round trip is the costliest thing a service does: the
// socket write that wakes Postgres was a fifth of the embedded platform's CPU (docs/performance-journal.md,
// P3), and one statement in seven was a START TRANSACTION. Here the runner remembers that a
// transaction was asked for, and the first statement goes out as BEGIN and the statement in one
// write, answered once: the extended protocol runs both before its single Sync, in order, BEGIN
// first, so the statement runs inside the transaction exactly as before. A transaction that ends
// before any statement sends neither BEGIN nor its COMMIT or ROLLBACK.
//
// Only the outermost transaction without an isolation level is deferred: savepoints and
// `SET TRANSACTION` go out as TypeORM sends them.
//
// The same way, a statement whose only purpose is to come before the next one (an advisory lock
// whose holder's commits the next statement must see: beforeNextStatement) travels with that next
// statement. The server runs them in order, each with its own snapshot, so the next statement still
// sees everything committed before the lock was granted.

// A statement sent ahead of another, in the same write. It returns no rows (nothing describes them)
// and its parameters are already text (or null).
export interface Prelude {
  text: string;
  values: Array<string | null>;
}

const BEGIN: Prelude = { text: 'BEGIN', values: [] };

interface WireConnection {
  parse(msg: { text: string; name?: string; types?: unknown[] }): void;
  bind(msg: { statement?: string; portal?: string; values?: unknown[] }): void;
  execute(msg: { portal?: string; rows?: number }): void;
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
}

// pg's own Query, preceded on the wire by the preludes as unnamed statements without Sync. The
// server answers each prelude's ParseComplete, BindComplete and CommandComplete, then the statement's
// messages, then one ReadyForQuery; pg's Query collects the results as a multi-statement query does.
// A failing prelude fails the query, and the server skips what follows it up to the Sync.
//
// A named statement (prepared-statements.ts) not yet prepared on the connection is parsed ahead of
// the preludes: pg takes the first ParseComplete of a query as its statement's, and a prelude that
// failed after it would otherwise leave pg sure of a statement the server never parsed. Parsing
// reads no rows and takes no snapshot, so the statement still runs after the preludes, as before.
//
// Preludes with parameters are named too, from the same names as the connection's statements: sent
// unnamed, each was parsed, analysed and planned by Postgres on every call (a credit's match, a
// batch's locks: about a fifth of the planning time left in P3, docs/performance-journal.md). A new one is parsed
// with the statement, ahead of every prelude, and counts as prepared only once the query succeeded
// (the server parsed everything before the Sync). After a failure nobody knows which of them the
// server parsed, so their texts get new names next time instead of a Bind to a name that may not exist.
class PreludedQuery extends Query {
  preludes: readonly NamedPrelude[] = [];
  // the preludes' names parsed by this query, which exist on the server once it succeeded
  readonly parsedHere: Array<{ name: string; text: string }> = [];
  declare name?: string;
  declare text: string;
  declare types?: unknown[];
  declare queryMode?: string;

  prepare(connection: unknown): void {
    const c = connection as WireConnection;
    const name = this.name;
    if (name && c.parsedStatements[name] === undefined && c.submittedNamedStatements[name] === undefined) {
      c.parse({ text: this.text, name, types: this.types });
      c.submittedNamedStatements[name] = this.text; // pg's own bookkeeping: Query.prepare parses no more
    }
    for (const { text, name: prepared } of this.preludes) {
      if (prepared === undefined || c.parsedStatements[prepared] !== undefined) continue;
      if (c.submittedNamedStatements[prepared] !== undefined) continue; // the statement's own text
      if (this.parsedHere.some((p) => p.name === prepared)) continue; // the same prelude twice
      c.parse({ text, name: prepared, types: [] });
      this.parsedHere.push({ name: prepared, text });
    }
    for (const prelude of this.preludes) {
      if (prelude.name === undefined) c.parse({ text: prelude.text, name: '', types: [] });
      c.bind({ statement: prelude.name ?? '', portal: '', values: prelude.values });
      c.execute({ portal: '', rows: 0 });
    }
    (Query.prototype as unknown as { prepare(connection: unknown): void }).prepare.call(this, connection);
  }
}

interface NamedPrelude extends Prelude {
  name?: string;
}

// The preludes and `text` in one round trip on `client`; the statement's result, as client.query gives it.
// Sent without BEGIN, the preludes and the statement are one implicit transaction, which the Sync
// commits (or, if any of them failed, rolls back): a transaction of several statements, each with its
// snapshot, in one round trip, every one of them prepared once per connection (see outbox-move.ts).
export function queryAfter(
  client: Client,
  preludes: readonly Prelude[],
  text: string,
  values?: unknown[],
): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    const names = statementNamesOf(client);
    const name = names?.nameFor(text, values);
    const connection = (client as unknown as { connection: WireConnection }).connection;
    // Made from the text, its fields set after (as namedQuery in prepared-statements.ts): pg copies a
    // config object property by property first.
    const query: PreludedQuery = new PreludedQuery(
      text,
      values ?? [],
      (err: Error | undefined, res: unknown) => {
        if (err && name) names?.failed(text, err);
        // a plan the server will no longer run (a table changed under it) may be any prelude's
        if (err) for (const prelude of query.preludes) if (prelude.name) names?.failed(prelude.text, err);
        for (const parsed of query.parsedHere) {
          if (err) names?.forget(parsed.text);
          else connection.parsedStatements[parsed.name] = parsed.text;
        }
        if (err) reject(err);
        else resolve((Array.isArray(res) ? res[res.length - 1] : res) as QueryResult);
      },
    );
    query.name = name;
    query.queryMode = 'extended';
    query.preludes = preludes.map((p) => ({ ...p, name: names?.nameFor(p.text, p.values) }));
    client.query(query as never);
  });
}

// What a deferring runner holds back, by runner: sent in front of its next statement.
const heldBack = new WeakMap<QueryRunner, Prelude[]>();

// Sends `prelude` in front of the next statement of `runner`'s transaction, in the same round trip
// (or with its COMMIT, if no other statement comes). Returns false, and the caller sends it itself,
// when the runner is not one of ours or not in a transaction. Only for a statement whose effect
// nothing in between depends on: work done before the next statement (a call to another service,
// say) happens before the prelude has run.
export function beforeNextStatement(runner: QueryRunner | undefined, prelude: Prelude): boolean {
  const preludes = runner && heldBack.get(runner);
  if (!preludes || !runner.isTransactionActive) return false;
  preludes.push(prelude);
  return true;
}

// Whether `runner`'s transaction has sent nothing to the server yet (its BEGIN still held back):
// then no statement of it, held back or not, has run.
export function nothingSentYet(runner: QueryRunner | undefined): boolean {
  return runner !== undefined && heldBack.get(runner)?.includes(BEGIN) === true;
}

// `text` on `runner` with `preludes` in front, in one round trip, in a transaction or not: outside one,
// the preludes and the statement are one implicit transaction (queryAfter), so what a prelude sets for
// the transaction (set_config's third argument) holds for this statement alone. Undefined, and nothing
// sent, when the runner is not one of ours.
export function queryWithPreludes(
  runner: QueryRunner,
  preludes: readonly Prelude[],
  text: string,
  values: unknown[],
): Promise<unknown> | undefined {
  const held = heldBack.get(runner);
  if (!held) return undefined;
  held.push(...preludes);
  return runner.query(text, values);
}

interface RunnerInternals {
  transactionDepth: number;
  isTransactionActive: boolean;
  broadcaster: { broadcast(event: string): Promise<void> };
  connect(): Promise<Client>;
}

export function deferTransactionStart(runner: QueryRunner): QueryRunner {
  const r = runner as QueryRunner & RunnerInternals;
  const startTransaction = r.startTransaction.bind(r);
  // TypeORM's own query(), typed loosely: the wrapper passes its arguments through as they came
  const query = r.query.bind(r) as (
    text: string,
    parameters?: unknown[],
    structured?: boolean,
  ) => Promise<unknown>;
  // What goes out in front of the next statement: BEGIN of a transaction nothing was sent for yet,
  // and the preludes handed to beforeNextStatement.
  const preludes: Prelude[] = [];
  heldBack.set(r, preludes);

  r.startTransaction = async (isolationLevel) => {
    if (isolationLevel || r.transactionDepth > 0) return startTransaction(isolationLevel);
    // TypeORM's own steps, less the statement
    r.isTransactionActive = true;
    try {
      await r.broadcaster.broadcast('BeforeTransactionStart');
    } catch (err) {
      r.isTransactionActive = false;
      throw err;
    }
    preludes.push(BEGIN);
    r.transactionDepth += 1;
    await r.broadcaster.broadcast('AfterTransactionStart');
  };

  r.query = (async (text: string, parameters?: unknown[], structured?: boolean) => {
    if (preludes.length === 0) return query(text, parameters, structured);
    const ahead = preludes.splice(0);
    // Nothing was sent for this transaction: there is nothing to end on the server either. A lock
    // held back still goes out with the COMMIT (whoever holds it is waited for, as asked); on a
    // ROLLBACK nothing held back matters any more.
    const unsent = ahead.includes(BEGIN);
    if (text === 'ROLLBACK' || (text === 'COMMIT' && ahead.length === 1 && unsent)) {
      if (unsent) return structured ? { records: [], raw: [] } : [];
      return query(text, parameters, structured);
    }
    // TypeORM's query() (logging, events, errors, the result's shape) around one call on the
    // runner's connection, which is made with the preludes in front.
    const client = await r.connect();
    const plain = client.query;
    client.query = ((t: string, v?: unknown[]) => {
      client.query = plain;
      return queryAfter(client, ahead, t, v);
    }) as typeof client.query;
    try {
      return await query(text, parameters, structured);
    } finally {
      client.query = plain;
    }
  }) as typeof r.query;

  // A stream is not a statement this can put BEGIN in front of: BEGIN goes out alone first.
  const stream = r.stream.bind(r);
  r.stream = (async (...args: Parameters<typeof r.stream>) => {
    for (const prelude of preludes.splice(0)) {
      await query(prelude === BEGIN ? 'START TRANSACTION' : prelude.text, prelude.values);
    }
    return stream(...args);
  }) as typeof r.stream;

  // A runner given back with its transaction still pending (never sent) starts clean next time.
  const release = r.release.bind(r);
  r.release = () => {
    preludes.length = 0;
    return release();
  };
  return r;
}

// Every query runner the DataSource makes from now on (its transactions and manager calls).
export function beginTransactionsWithFirstStatement(ds: DataSource): void {
  const driver = ds.driver as unknown as { createQueryRunner(mode: 'master' | 'slave'): QueryRunner };
  const create = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode) => deferTransactionStart(create(mode));
}
