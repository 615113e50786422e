import { commonEnv, int, loadEnv } from '@onramp/config';
import { dbPreparedStatements } from '@onramp/persistence';

import {
  KafkaClientConfig,
  KafkaTopicSettings,
  loadKafkaClientConfig,
  loadKafkaTopicSettings,
  ReadFile,
} from './kafka-client-config';

// Which transport a service's events travel on, and how to reach it: what MessagingModule.forService
// is given (EVENT_TRANSPORT and the Kafka or embedded settings, parsed once by the app's config).
export type TransportConfig =
  | { kind: 'embedded'; databaseUrl: string; partitions: number; preparedStatements: boolean }
  | {
      kind: 'kafka';
      client: KafkaClientConfig;
      topics: KafkaTopicSettings;
      sessionTimeoutMs: number; // how long a crashed consumer holds its partitions
      commitIntervalMs: number; // how often consumers commit their offsets (0: after every batch)
    };

// The config parser: an app's config.ts calls it with the environment it was given.
export function loadTransportConfig(source: NodeJS.ProcessEnv, readFile?: ReadFile): TransportConfig {
  const { EVENT_TRANSPORT } = loadEnv({ EVENT_TRANSPORT: commonEnv.EVENT_TRANSPORT }, source);
  if (EVENT_TRANSPORT === 'embedded') {
    const env = loadEnv(
      { DATABASE_URL: commonEnv.DATABASE_URL, KAFKA_PARTITIONS: commonEnv.KAFKA_PARTITIONS },
      source,
    );
    return {
      kind: 'embedded',
      databaseUrl: env.DATABASE_URL,
      partitions: env.KAFKA_PARTITIONS,
      preparedStatements: dbPreparedStatements(source),
    };
  }
  const env = loadEnv(
    {
      // how long a crashed consumer holds its partitions before the group moves on (broker minimum 6 s)
      KAFKA_SESSION_TIMEOUT_MS: int({ default: 30_000, min: 6_000 }),
      // how often a consumer commits the offsets of what it handled; 0: after every batch, before the
      // next fetch (a broker round trip on every event's path; docs/performance-journal.md)
      KAFKA_COMMIT_INTERVAL_MS: int({ default: 1000, min: 0, max: 60_000 }),
    },
    source,
  );
  return {
    kind: 'kafka',
    client: loadKafkaClientConfig(source, readFile),
    topics: loadKafkaTopicSettings(source),
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    commitIntervalMs: env.KAFKA_COMMIT_INTERVAL_MS,
  };
}
