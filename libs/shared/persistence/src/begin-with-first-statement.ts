import { Query, QueryResult } from 'pg';
import type { Client } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';

// A transaction's BEGIN travels with its first statement instead of alone.
//
// TypeORM starts a transaction with a round trip of its own (START TRANSACTION, then wait), before
// the first statement. On the payout path a round trip is the costliest thing a service does: the
// socket write that wakes Postgres was a fifth of the embedded platform's CPU (docs/performance.md,
// P3), and one statement in seven was a START TRANSACTION. Here the runner remembers that a
// transaction was asked for, and the first statement goes out as BEGIN and the statement in one
// write, answered once: the extended protocol runs both before its single Sync, in order, BEGIN
// first, so the statement runs inside the transaction exactly as before. A transaction that ends
// before any statement sends neither BEGIN nor its COMMIT or ROLLBACK.
//
// Only the outermost transaction without an isolation level is deferred: savepoints and
// `SET TRANSACTION` go out as TypeORM sends them.

// pg's own Query, preceded on the wire by BEGIN as an unnamed statement without Sync. The server
// answers BEGIN's ParseComplete, BindComplete and CommandComplete, then the statement's messages,
// then one ReadyForQuery; pg's Query collects the two results as a multi-statement query does.
class BeginThenQuery extends Query {
  prepare(connection: unknown): void {
    const c = connection as {
      parse(msg: { text: string; name?: string; types?: number[] }): void;
      bind(msg: { statement?: string; portal?: string; values?: unknown[] }): void;
      execute(msg: { portal?: string; rows?: number }): void;
    };
    c.parse({ text: 'BEGIN', name: '', types: [] });
    c.bind({ statement: '', portal: '', values: [] });
    c.execute({ portal: '', rows: 0 });
    (Query.prototype as unknown as { prepare(connection: unknown): void }).prepare.call(this, connection);
  }
}

// BEGIN and `text` in one round trip on `client`; the statement's result, as client.query gives it.
export function beginThenQuery(client: Client, text: string, values?: unknown[]): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new BeginThenQuery(
      { text, values: values ?? [], queryMode: 'extended' } as unknown as string,
      undefined,
      (err: Error | undefined, res: unknown) => {
        if (err) reject(err);
        else resolve((Array.isArray(res) ? res[res.length - 1] : res) as QueryResult);
      },
    );
    client.query(query as never);
  });
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
  const query = r.query.bind(r) as (text: string, parameters?: unknown[], structured?: boolean) => Promise<unknown>;
  let pending = false; // a transaction was started and nothing sent for it yet

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
    pending = true;
    r.transactionDepth += 1;
    await r.broadcaster.broadcast('AfterTransactionStart');
  };

  r.query = (async (text: string, parameters?: unknown[], structured?: boolean) => {
    if (!pending) return query(text, parameters, structured);
    pending = false;
    // Nothing was sent for this transaction: there is nothing to end on the server either.
    if (text === 'COMMIT' || text === 'ROLLBACK') return structured ? { records: [], raw: [] } : [];
    // TypeORM's query() (logging, events, errors, the result's shape) around one call on the
    // runner's connection, which is made with BEGIN in front.
    const client = await r.connect();
    const plain = client.query;
    client.query = ((t: string, v?: unknown[]) => {
      client.query = plain;
      return beginThenQuery(client, t, v);
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
    if (pending) {
      pending = false;
      await query('START TRANSACTION');
    }
    return stream(...args);
  }) as typeof r.stream;

  // A runner given back with its transaction still pending (never sent) starts clean next time.
  const release = r.release.bind(r);
  r.release = () => {
    pending = false;
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
