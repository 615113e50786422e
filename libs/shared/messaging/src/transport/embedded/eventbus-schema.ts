import { Pool } from 'pg';

// The embedded bus's own schema: an append-only log (Kafka's topic partitions, numbered by one
// global sequence) and the committed position of every consumer group.
export const EVENTBUS_SCHEMA = 'eventbus';

export interface EventbusSchemaOptions {
  partitions: number; // used when the bus is created; afterwards the stored count wins
  retentionHours: number;
}

// Idempotent, and serialised by an advisory lock because every service connects at the same time.
// Returns the partition count in force: changing it later would move keys to other partitions and
// break per-key ordering, which Kafka prevents too (partitions can only be added with care).
export async function ensureEventbusSchema(pool: Pool, opts: EventbusSchemaOptions): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('eventbus.schema'))`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${EVENTBUS_SCHEMA}`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${EVENTBUS_SCHEMA}.meta (
        id BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (id),
        partitions INT NOT NULL CHECK (partitions > 0),
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${EVENTBUS_SCHEMA}.log (
        seq BIGSERIAL PRIMARY KEY,
        topic TEXT NOT NULL,
        partition INT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        headers JSONB NOT NULL DEFAULT '{}',
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await client.query(
      `CREATE INDEX IF NOT EXISTS log_partition_seq ON ${EVENTBUS_SCHEMA}.log (partition, seq)`,
    );
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${EVENTBUS_SCHEMA}.offsets (
        group_id TEXT NOT NULL,
        topic TEXT NOT NULL,
        partition INT NOT NULL,
        seq BIGINT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (group_id, topic, partition)
      )`);
    await client.query(
      `INSERT INTO ${EVENTBUS_SCHEMA}.meta (partitions) VALUES ($1) ON CONFLICT DO NOTHING`,
      [opts.partitions],
    );
    const { rows } = await client.query<{ partitions: number }>(
      `SELECT partitions FROM ${EVENTBUS_SCHEMA}.meta`,
    );
    // Kafka's default retention (7 days): a group away for longer misses what expired, as it would there.
    await client.query(
      `DELETE FROM ${EVENTBUS_SCHEMA}.log WHERE created_at < now() - make_interval(hours => $1)`,
      [opts.retentionHours],
    );
    await client.query('COMMIT');
    return rows[0].partitions;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
