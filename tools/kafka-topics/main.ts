// `npm run kafka:topics` (compiled: node dist/tools/kafka-topics/main.js): creates every topic of the
// platform and its `.dlq` with KAFKA_PARTITIONS and KAFKA_REPLICATION_FACTOR, on the cluster reached
// with the same KAFKA_* settings as the apps (SASL, TLS). Idempotent: existing topics are kept as
// they are and listed with their partition count. Run it before apps with KAFKA_CREATE_TOPICS=false.
import { Kafka, logLevel } from 'kafkajs';

import { loadKafkaClientConfig, loadKafkaTopicSettings, provisionTopics } from '@onramp/messaging';

async function main(): Promise<void> {
  const client = loadKafkaClientConfig(process.env);
  const settings = loadKafkaTopicSettings(process.env);
  const kafka = new Kafka({
    clientId: 'onramp-kafka-topics',
    ...client,
    logLevel: logLevel.ERROR,
    retry: { initialRetryTime: 300, retries: 10 },
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const result = await provisionTopics(admin, settings);
    for (const topic of result.created) {
      say(`created ${topic} (partitions ${settings.partitions}, replication ${settings.replicationFactor})`);
    }
    for (const t of result.existing) {
      const note =
        t.partitions === settings.partitions
          ? ''
          : ` (KAFKA_PARTITIONS is ${settings.partitions}; left as is)`;
      say(`exists  ${t.topic} (partitions ${t.partitions})${note}`);
    }
    say(`done: ${result.created.length} created, ${result.existing.length} already there`);
  } finally {
    await admin.disconnect();
  }
}

function say(line: string): void {
  process.stdout.write(`[kafka-topics] ${line}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`[kafka-topics] failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
