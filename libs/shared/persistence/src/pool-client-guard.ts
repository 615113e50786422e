import { Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';

// node-postgres emits 'error' on a connection the server cuts (a restart: "terminating connection due
// to administrator command") even when no query is running on it. pg-pool listens only while the
// connection is idle in the pool and TypeORM only while a query runner holds it, so a connection
// caught in between (just released with an error, being closed) had no listener, and the process
// crashed on the unhandled 'error' event. Every connection of the pool gets a listener that logs;
// the pool and TypeORM still decide what becomes of the connection, and the next query reconnects.
export function guardPoolConnections(ds: DataSource, log: Logger): void {
  const pool = (ds.driver as unknown as { master?: Pool }).master;
  if (!pool) return;
  const guarded = new WeakSet<PoolClient>();
  const guard = (client: PoolClient): void => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', (err) => log.warn(`database connection lost: ${err.message}`));
  };
  pool.on('connect', guard);
  // The connection TypeORM opened while initializing was made before this listener existed.
  for (const client of (pool as unknown as { _clients?: PoolClient[] })._clients ?? []) guard(client);
}
