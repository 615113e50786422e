import { PoolClient } from 'pg';

import { GENERIC_PLAN_PRELUDE, Prelude, queryAfter } from '@onramp/persistence';

import { relayLockKey } from '../event-transport';
import { EVENTBUS_SCHEMA } from './eventbus-schema';

import { AppendedRow } from './appended-events';

export interface OutboxMove {
  moved: number;
  maxSeq: bigint;
  records: Array<{ topic: string; partition: number }>; // each topic and partition written, once
  // The log's last seq before these rows, and the rows as appended: what the process's own consumers
  // take without reading the log again (see PartitionConsumer.offer).
  previousMaxSeq: bigint;
  rows?: AppendedRow[]; // absent when the move was larger than the consumers are handed
}

interface OutboxMoveRow {
  moved: number;
  maxSeq: string;
  previousMaxSeq: string;
  records: OutboxMove['records'];
  rows: AppendedRow[] | null;
}

// Set for the transaction when the relay's lock was granted.
const RELAY_LOCKED = 'onramp.relay_locked';

// The most rows a move hands to the process's consumers with it (see PartitionConsumer.offer).
const HANDED_ROWS_MAX = 200;

// One relay round in embedded mode: the outbox and the log share the database, so the rows go from
// one table to the other in one statement: deleted from the outbox and appended to the log in one
// commit (a crash before the commit leaves them in the outbox, after it they are in the log: never
// lost, never twice). A delete only stamps the old row version: unlike marking the row published it
// writes no new version and no index entry (docs/performance-journal.md, "The outbox relay deletes what it
// published").
// One round trip: the relay's lock (tried), the append lock and the move, sent with the extended
// protocol before a single Sync, so they are one implicit transaction that the Sync commits (or rolls
// back, if any of them failed), each statement with a snapshot of its own. The append lock is the one
// `publish` takes, so sequence numbers become visible in order here too. The statements after the
// relay's lock go ahead only if it was granted (a transaction-local setting says so): without it
// nothing is locked or moved.
// Every statement has parameters, so each is prepared once per connection (prepared-statements.ts),
// and the move runs with its generic plan: as one simple query of five statements, Postgres parsed and
// planned all of them at every round, as long as it took to run them (P2: 2.45 s of planning for
// 6,460 moves, docs/performance-journal.md); and a custom plan for `LIMIT $1` would be made at every call too.
export async function moveOutboxRows(
  client: PoolClient,
  opts: { schema: string; limit: number; partitions: number },
): Promise<OutboxMove> {
  const { schema, limit, partitions } = opts;
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`outbox move: bad limit ${limit}`);
  if (!Number.isInteger(partitions) || partitions < 1)
    throw new Error(`outbox move: bad partitions ${partitions}`);
  const outbox = `${client.escapeIdentifier(schema)}."outbox"`;
  const locked = `current_setting('${RELAY_LOCKED}') = 'true'`;
  const preludes: Prelude[] = [
    GENERIC_PLAN_PRELUDE,
    { text: TRY_RELAY_LOCK, values: [RELAY_LOCKED, relayLockKey(schema)] },
    { text: APPEND_LOCK, values: [RELAY_LOCKED] },
  ];
  // Rows leave the outbox in seq order and are appended in that order (ORDER BY before the log's
  // sequence is drawn), which keeps each key's order; the partition is Kafka's, from the hash the
  // writer stored (outboxKeyHashSql), or computed in SQL for a row written without one.
  // The batch is every row up to the limit-th committed one: one range of the primary key, read in
  // the statement's one snapshot (exactly the first rows it sees; a row committed later is not
  // seen, whatever its seq). An index scan, where a join with the batch hashed the whole outbox,
  // the rows deleted since the last vacuum included (P5: 84 -> 72 ms per 5,000 rows moved).
  const { rows } = await queryAfter(
    client,
    preludes,
    `WITH taken AS (
       DELETE FROM ${outbox} o
       WHERE ${locked} AND o.seq <= (SELECT max(seq) FROM (SELECT seq FROM ${outbox} ORDER BY seq LIMIT $1::int) AS batch)
       RETURNING o.seq, o.topic, o.key, o.key_hash, o.envelope, o.headers
     ), appended AS (
       INSERT INTO ${EVENTBUS_SCHEMA}.log (topic, partition, key, value, headers)
       SELECT topic, coalesce(key_hash % $2::int, ${EVENTBUS_SCHEMA}.partition_for(key, $2::int)), key, envelope::text, headers
       FROM taken ORDER BY seq
       RETURNING seq, topic, partition, key, value, headers
     )
     SELECT (SELECT count(*)::int FROM appended) AS moved,
            (SELECT coalesce(max(seq), 0)::text FROM appended) AS "maxSeq",
            -- the statement's snapshot, taken under the append lock, holds every earlier append
            -- and none of its own rows: this is the log's last seq before them
            (SELECT coalesce(max(seq), 0)::text FROM ${EVENTBUS_SCHEMA}.log) AS "previousMaxSeq",
            (SELECT coalesce(json_agg(json_build_object('topic', topic, 'partition', partition)), '[]')
             FROM (SELECT DISTINCT topic, partition FROM appended) AS written) AS records,
            -- only a small move's rows: a backlog's are read by the consumers a batch at a time, as
            -- before, rather than built into one JSON value here (P5's relay rounds of thousands). The
            -- count gates the scan (a one-time filter): a CASE around the aggregate had built the JSON
            -- of every move and thrown a large one away (6 of 35 ms a move of 1,000 rows).
            (SELECT json_agg(json_build_object('seq', seq::text, 'topic', topic, 'partition', partition,
                      'key', key, 'value', value, 'headers', headers) ORDER BY seq)
             FROM appended WHERE (SELECT count(*) FROM appended) <= $3::int) AS rows`,
    [limit, partitions, HANDED_ROWS_MAX],
  );
  const row = rows[0] as OutboxMoveRow;
  if (row.moved === 0) return { moved: 0, maxSeq: 0n, records: [], previousMaxSeq: 0n }; // nothing waited, or another relay held the lock
  return {
    moved: row.moved,
    maxSeq: BigInt(row.maxSeq),
    records: row.records,
    previousMaxSeq: BigInt(row.previousMaxSeq),
    rows: row.rows ?? undefined,
  };
}

// The locks' preludes, each with a parameter so that it too is prepared once per connection. A
// prelude returns no rows (queryAfter), so each does its work in a WHERE that is never true:
// set_config returns the value it set, and the append lock's CASE calls it only when the relay's lock
// was granted (void as text is ''). The setting is the transaction's (set_config's third argument),
// so it ends with it at the Sync.
const TRY_RELAY_LOCK = `SELECT 1 WHERE set_config($1, pg_try_advisory_xact_lock(hashtext($2))::text, true) IS NULL`;
const APPEND_LOCK = `SELECT 1 WHERE CASE WHEN current_setting($1) = 'true'
  THEN pg_advisory_xact_lock(hashtext('${EVENTBUS_SCHEMA}.append'))::text ELSE '' END IS NULL`;
