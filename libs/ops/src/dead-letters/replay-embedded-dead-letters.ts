import { Pool } from 'pg';

import { ALL_TOPICS } from '@onramp/contracts';
import { AppendedRow, EmbeddedTransport, EVENTBUS_SCHEMA } from '@onramp/messaging';

import {
  DeadLetter,
  DeadLetterFilter,
  dlqTopicFor,
  matchesFilter,
  replayGroupId,
  replayHeaders,
  sourceTopicOf,
} from './dead-letter-record';
import { DEFAULT_REPLAY_GROUP, describeDeadLetter, ReplayResult } from './replay-dead-letters';

export interface ReplayEmbeddedDeadLettersOptions extends DeadLetterFilter {
  databaseUrl: string; // the Postgres of `npm start` (its event bus lives in the eventbus schema)
  topics?: string[];
  dryRun?: boolean;
  groupId?: string;
}

// The same replay for the embedded transport of `npm start`, where `<topic>.dlq` is a topic of the
// event bus in Postgres: dead letters this tool's group has not read yet (up to the end when the
// replay started) are re-published to their source topic through the transport itself (same key,
// same partition, same ordering lock as the services), and the group's position is committed after
// each, so a replay is not repeated. --dry-run reads and commits nothing.
export async function replayEmbeddedDeadLetters(
  opts: ReplayEmbeddedDeadLettersOptions,
): Promise<ReplayResult> {
  const filter: DeadLetterFilter = { consumer: opts.consumer, since: opts.since };
  const groupId = replayGroupId(opts.groupId ?? DEFAULT_REPLAY_GROUP, filter);
  const dryRun = opts.dryRun ?? false;
  const result: ReplayResult = { groupId, dryRun, replayed: 0, skipped: 0, records: [] };
  const pool = new Pool({
    connectionString: opts.databaseUrl,
    max: 2,
    application_name: 'onramp-replay-dlq',
  });
  let transport: EmbeddedTransport | undefined;
  try {
    const { rows: meta } = await pool
      .query<{ partitions: number }>(
        `SELECT partitions FROM ${EVENTBUS_SCHEMA}.meta WHERE to_regclass('${EVENTBUS_SCHEMA}.meta') IS NOT NULL`,
      )
      .catch(() => ({ rows: [] as { partitions: number }[] }));
    if (meta.length === 0)
      throw new Error(`no embedded event bus (schema ${EVENTBUS_SCHEMA}) at DATABASE_URL`);
    const topics = [...new Set((opts.topics ?? ALL_TOPICS).map(dlqTopicFor))];
    const { rows } = await pool.query<AppendedRow & { created_at: Date }>(
      `SELECT l.seq::text AS seq, l.topic, l.partition, l.key, l.value, l.headers, l.created_at
       FROM ${EVENTBUS_SCHEMA}.log l
       LEFT JOIN ${EVENTBUS_SCHEMA}.offsets o ON o.group_id = $1 AND o.topic = l.topic AND o.partition = l.partition
       WHERE l.topic = ANY($2::text[]) AND l.seq > COALESCE(o.seq, 0)
       ORDER BY l.seq`,
      [groupId, topics],
    );
    if (!dryRun && rows.length > 0) {
      transport = new EmbeddedTransport({
        databaseUrl: opts.databaseUrl,
        clientId: 'onramp-replay-dlq',
        partitions: meta[0].partitions,
      });
      await transport.connect();
    }
    for (const row of rows) {
      const record: DeadLetter = {
        dlqTopic: row.topic,
        partition: row.partition,
        offset: row.seq,
        timestamp: row.created_at,
        key: row.key,
        value: row.value,
        headers: row.headers,
      };
      const keep = matchesFilter(record, filter);
      if (keep && transport) {
        await transport.publish([
          { topic: sourceTopicOf(row.topic), key: row.key, value: row.value, headers: replayHeaders(record) },
        ]);
        result.replayed++;
      }
      if (!keep) result.skipped++;
      result.records.push(
        describeDeadLetter(record, keep ? (dryRun ? 'would-replay' : 'replayed') : 'skipped'),
      );
      if (!dryRun) {
        await pool.query(
          `INSERT INTO ${EVENTBUS_SCHEMA}.offsets (group_id, topic, partition, seq) VALUES ($1, $2, $3, $4)
           ON CONFLICT (group_id, topic, partition)
           DO UPDATE SET seq = EXCLUDED.seq, updated_at = now() WHERE offsets.seq < EXCLUDED.seq`,
          [groupId, row.topic, row.partition, row.seq],
        );
      }
    }
    return result;
  } finally {
    await transport?.disconnect().catch(() => undefined);
    await pool.end().catch(() => undefined);
  }
}
