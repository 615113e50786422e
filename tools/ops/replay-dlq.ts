// `npm run replay-dlq [-- --dry-run] [--topic <topic> ...] [--consumer <group>] [--since <ISO time>] [--json] [--embedded]`
//
// Re-publishes dead-lettered events (<topic>.dlq) to their source topic, original key and value,
// without the dlq-* headers. The tool's own consumer group (onramp-dlq-replay, or
// onramp-dlq-replay.<consumer> with --consumer) commits what it read, so a replay is not repeated;
// records older than --since are skipped and count as read. Consumers dedupe by event id, so
// replaying is safe. --dry-run lists what would be replayed and commits nothing. Env: KAFKA_BROKERS and
// the KAFKA_SASL_* / KAFKA_SSL* settings of the apps; or, for npm start's embedded transport
// (EVENT_TRANSPORT=embedded, or --embedded), DATABASE_URL (the Postgres npm start prints).
import { parseArgs } from 'node:util';

import { ConfigError, loadEnv, str } from '@onramp/config';
import { loadKafkaClientConfig } from '@onramp/messaging';
import { replayDeadLetters, replayEmbeddedDeadLetters, ReplayResult } from '@onramp/ops';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      topic: { type: 'string', multiple: true },
      consumer: { type: 'string' },
      since: { type: 'string' },
      group: { type: 'string' },
      embedded: { type: 'boolean', default: false },
    },
  });
  const since = values.since === undefined ? undefined : new Date(values.since);
  if (since && Number.isNaN(since.getTime())) throw new ConfigError(`--since: not a date: "${values.since}"`);
  const filter = {
    topics: values.topic,
    consumer: values.consumer,
    since,
    dryRun: values['dry-run'],
    groupId: values.group,
  };
  const embedded = values.embedded || process.env.EVENT_TRANSPORT === 'embedded';
  const result = embedded
    ? await replayEmbeddedDeadLetters({
        databaseUrl: loadEnv({ DATABASE_URL: str() }).DATABASE_URL,
        ...filter,
      })
    : await replayDeadLetters({ ...loadKafkaClientConfig(process.env), ...filter });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : format(result));
}

function format(r: ReplayResult): string {
  const verb = r.dryRun ? 'would replay' : 'replayed';
  const count = r.records.length - r.skipped;
  const lines = r.records.map(
    (d) =>
      `  ${d.action.padEnd(12)} ${d.dlqTopic}@${d.partition}:${d.offset} -> ${d.sourceTopic} key ${d.key} event ${d.eventId ?? '?'} ` +
      `(${d.consumer ?? 'unknown consumer'}, ${d.deadLetteredAt}): ${d.error ?? ''}`,
  );
  return `${[`${verb} ${count} dead letter(s), skipped ${r.skipped} (group ${r.groupId})`, ...lines].join('\n')}\n`;
}

main().catch((err: unknown) => {
  process.stderr.write(`replay-dlq: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
