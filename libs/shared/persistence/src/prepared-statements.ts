import { Client, ClientConfig, Query } from 'pg';

// Named (server-side prepared) statements for the statements a connection sends again and again.
//
// Without a name, Postgres parses, analyses and plans every statement it is sent. On the payout
// path the planning alone took as long as the execution (pg_stat_statements over the bench's P2:
// 6.5 s of planning against 9 s of execution, for statements of a few rows each), and the text of
// each statement (a CTE of a kilobyte or two) was written to the socket every time. A connection
// that names a statement the first time it sends it parses it once; from then on it sends only the
// name and the parameters, and after a few executions Postgres keeps a generic plan when it costs
// no more than the custom ones.
//
// Only statements with parameters are named: those are the ones the code sends repeatedly with
// different values (a statement without them goes out as a simple query, as before). A connection
// names at most `limit` different texts; past that, new texts go out unnamed, so a flood of one-off
// shapes cannot grow the server's memory without bound. DB_PREPARED_STATEMENTS=false turns it off,
// for a pooler that cannot carry named statements across transactions (PgBouncer in transaction
// mode before 1.21).
//
// A prepared statement keeps the shape of its result. If a migration changes a table under it (a
// column added while an older release still runs, and the statement reads `t.*`), Postgres refuses
// to run it again ("cached plan must not change result type"): that call fails, and the name is
// forgotten, so the next call prepares the statement afresh under a new name.
export const PREPARED_PER_CONNECTION = 100;

export class StatementNames {
  private readonly names = new Map<string, string>();
  private issued = 0;

  constructor(private readonly limit = PREPARED_PER_CONNECTION) {}

  // The name `text` is prepared under on this connection, or undefined when it goes out unnamed.
  nameFor(text: string, values: readonly unknown[] | undefined): string | undefined {
    if (!values || values.length === 0) return undefined;
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.limit) return known;
    const name = `onramp_${++this.issued}`;
    this.names.set(text, name);
    return name;
  }

  // After `err` from the statement named for `text`: a plan the server will no longer run is dropped.
  failed(text: string, err: unknown): void {
    if (isStalePlan(err)) this.names.delete(text);
  }

  // `text` goes out under a new name next time: the server may or may not hold the old one.
  forget(text: string): void {
    this.names.delete(text);
  }
}

function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | undefined;
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

const NAMES = Symbol('statementNames');

// The names of `client`'s connection (a client is one connection; a new connection starts empty,
// as the server's statements belong to the session).
export function statementNamesOf(client: Client): StatementNames | undefined {
  return (client as Client & { [NAMES]?: StatementNames })[NAMES];
}

// pg's Client that names its repeated statements; handed to the pool as its `Client`.
export class PreparingClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    (this as Client & { [NAMES]?: StatementNames })[NAMES] = new StatementNames();
  }

  // pg's overloads pass through untouched, except (text, values[, callback]) with values.
  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const names = statementNamesOf(this);
    const name = typeof text === 'string' && Array.isArray(values) ? names?.nameFor(text, values) : undefined;
    const query = Client.prototype.query as (...a: unknown[]) => unknown;
    if (name === undefined || !names) return query.apply(this, args) as never;
    const send = (done: (err: unknown, res: unknown) => void): void => {
      query.call(
        this,
        namedQuery(text as string, values as unknown[], name, (err, res) => {
          if (err) names.failed(text as string, err);
          done(err, res);
        }),
      );
    };
    if (typeof callback === 'function') return send(callback as (e: unknown, r: unknown) => void) as never;
    return new Promise((resolve, reject) => send((err, res) => (err ? reject(err) : resolve(res)))) as never;
  }
}

// pg's Query for a named statement, made from the text: given a config object instead, pg copies it
// property by property (getOwnPropertyDescriptors, defineProperties) before reading it, 1.2 % of the
// embedded platform's busy time in P2 (docs/performance-journal.md). The name is set after the constructor,
// which would have read it from the config.
function namedQuery(
  text: string,
  values: unknown[],
  name: string,
  callback: (err: Error | undefined, res: unknown) => void,
): Query {
  const q = new Query(text, values, callback) as Query & { name?: string };
  q.name = name;
  return q;
}
