import { Pool } from 'pg';

// The embedded bus's own schema: an append-only log (Kafka's topic partitions, numbered by one
// global sequence) and the committed position of every consumer group.
export const EVENTBUS_SCHEMA = 'eventbus';

export interface EventbusSchemaOptions {
  partitions: number; // used when the bus is created; afterwards the stored count wins
  retentionHours: number;
}

export interface EventbusInfo {
  partitions: number; // in force: the count the bus was created with
  busId: string; // the bus's creation instant in microseconds: tells whether another connection sees this bus
}

// Idempotent, and serialised by an advisory lock because every service connects at the same time.
// Returns the partition count in force: changing it later would move keys to other partitions and
// break per-key ordering, which Kafka prevents too (partitions can only be added with care).
export async function ensureEventbusSchema(pool: Pool, opts: EventbusSchemaOptions): Promise<EventbusInfo> {
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
    await client.query(PARTITION_FOR_FUNCTION);
    const { rows } = await client.query<EventbusInfo>(
      `SELECT partitions, ${BUS_ID} AS "busId" FROM ${EVENTBUS_SCHEMA}.meta`,
    );
    // Kafka's default retention (7 days): a group away for longer misses what expired, as it would there.
    await client.query(
      `DELETE FROM ${EVENTBUS_SCHEMA}.log WHERE created_at < now() - make_interval(hours => $1)`,
      [opts.retentionHours],
    );
    await client.query('COMMIT');
    return rows[0];
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

// The expression `busId` is read with, from any connection (see EventbusInfo).
export const BUS_ID = `(extract(epoch FROM created_at) * 1000000)::bigint::text`;

// Kafka's default partitioner (murmur2-partitioner.ts) in SQL, for appends that never pass through
// JavaScript (the outbox move): the same key lands on the same partition either way, which the
// embedded transport's integration spec checks. Each PL/pgSQL statement is a step of the
// interpreter, so a 4-byte word is two statements (it was six and a WHILE test): about 3 us a
// 36-character key instead of 5, a third of the move's time in P5 before (docs/performance-journal.md).
const PARTITION_FOR_FUNCTION = `
  CREATE OR REPLACE FUNCTION ${EVENTBUS_SCHEMA}.partition_for(key TEXT, partitions INT) RETURNS INT
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
  DECLARE
    d BYTEA := convert_to(key, 'UTF8');
    len INT := length(d);
    whole INT := len & ~3;
    -- m = 0x5bd1e995; 32-bit words held unsigned in a BIGINT, products masked
    h BIGINT := 2538058380 # len;     -- 0x9747b28c ^ length
    k BIGINT;
  BEGIN
    FOR i IN 0 .. whole - 4 BY 4 LOOP
      k := ((get_byte(d, i)::BIGINT | (get_byte(d, i + 1)::BIGINT << 8)
        | (get_byte(d, i + 2)::BIGINT << 16) | (get_byte(d, i + 3)::BIGINT << 24)) * 1540483477) & 4294967295;
      h := ((h * 1540483477) & 4294967295) # (((k # (k >> 24)) * 1540483477) & 4294967295);
    END LOOP;
    IF len & 3 = 3 THEN h := h # (get_byte(d, whole + 2)::BIGINT << 16); END IF;
    IF len & 3 >= 2 THEN h := h # (get_byte(d, whole + 1)::BIGINT << 8); END IF;
    IF len & 3 >= 1 THEN h := ((h # get_byte(d, whole)) * 1540483477) & 4294967295; END IF;
    h := h # (h >> 13);
    h := (h * 1540483477) & 4294967295;
    h := h # (h >> 15);
    RETURN ((h & 2147483647) % partitions)::INT;
  END $$`;
