import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

import type { SASLOptions } from 'kafkajs';

import { bool, commonEnv, ConfigError, int, loadEnv, oneOf, str } from '@onramp/config';

// How every process (apps, kafka-topics, replay-dlq) reaches a managed cluster: SASL (PLAIN, SCRAM)
// and TLS from the environment. docs/configuration.md lists the variables.
export const kafkaClientEnvSpec = {
  ONRAMP_MODE: commonEnv.ONRAMP_MODE,
  KAFKA_BROKERS: commonEnv.KAFKA_BROKERS,
  KAFKA_SASL_MECHANISM: oneOf(['none', 'plain', 'scram-sha-256', 'scram-sha-512'] as const, {
    default: 'none',
  }),
  KAFKA_SASL_USERNAME: str({ optional: true }),
  KAFKA_SASL_PASSWORD: str({ optional: true }),
  KAFKA_SSL: bool({ default: false }),
  KAFKA_SSL_CA_FILE: str({ optional: true }),
  KAFKA_SSL_CERT_FILE: str({ optional: true }),
  KAFKA_SSL_KEY_FILE: str({ optional: true }),
};

export interface KafkaClientConfig {
  brokers: string[];
  ssl?: ConnectionOptions | boolean;
  sasl?: SASLOptions;
}

export type ReadFile = (path: string) => string;

const readUtf8: ReadFile = (path) => readFileSync(path, 'utf8');

export function loadKafkaClientConfig(
  source: NodeJS.ProcessEnv,
  readFile: ReadFile = readUtf8,
): KafkaClientConfig {
  const env = loadEnv(kafkaClientEnvSpec, source);
  const problems: string[] = [];
  const brokers = env.KAFKA_BROKERS.split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
  if (brokers.length === 0) problems.push('KAFKA_BROKERS must list at least one host:port');

  let sasl: SASLOptions | undefined;
  if (env.KAFKA_SASL_MECHANISM !== 'none') {
    if (!env.KAFKA_SASL_USERNAME)
      problems.push(`KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM=${env.KAFKA_SASL_MECHANISM}`);
    if (!env.KAFKA_SASL_PASSWORD)
      problems.push(`KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM=${env.KAFKA_SASL_MECHANISM}`);
    if (env.ONRAMP_MODE === 'production' && !env.KAFKA_SSL) {
      problems.push(
        'KAFKA_SASL_MECHANISM needs KAFKA_SSL=true in production mode (credentials would cross the network in clear)',
      );
    }
    sasl = {
      mechanism: env.KAFKA_SASL_MECHANISM,
      username: env.KAFKA_SASL_USERNAME,
      password: env.KAFKA_SASL_PASSWORD,
    };
  } else if (env.KAFKA_SASL_USERNAME || env.KAFKA_SASL_PASSWORD) {
    problems.push(
      'KAFKA_SASL_USERNAME / KAFKA_SASL_PASSWORD are set but KAFKA_SASL_MECHANISM is not (plain, scram-sha-256 or scram-sha-512)',
    );
  }

  const files = { ca: env.KAFKA_SSL_CA_FILE, cert: env.KAFKA_SSL_CERT_FILE, key: env.KAFKA_SSL_KEY_FILE };
  if (!env.KAFKA_SSL && (files.ca || files.cert || files.key)) {
    problems.push('KAFKA_SSL_CA_FILE / KAFKA_SSL_CERT_FILE / KAFKA_SSL_KEY_FILE need KAFKA_SSL=true');
  }
  if (Boolean(files.cert) !== Boolean(files.key)) {
    problems.push('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE must be set together (client certificate)');
  }
  const read = (name: string, path: string): string | undefined => {
    try {
      return readFile(path);
    } catch (err) {
      problems.push(`${name} cannot be read: ${(err as NodeJS.ErrnoException).code ?? 'error'} ${path}`);
      return undefined;
    }
  };
  let ssl: ConnectionOptions | boolean | undefined;
  if (env.KAFKA_SSL) {
    const tls: ConnectionOptions = {};
    if (files.ca) tls.ca = [read('KAFKA_SSL_CA_FILE', files.ca) ?? ''];
    if (files.cert && files.key) {
      tls.cert = read('KAFKA_SSL_CERT_FILE', files.cert);
      tls.key = read('KAFKA_SSL_KEY_FILE', files.key);
    }
    // true: TLS with the system's CAs, server certificate verified.
    ssl = Object.keys(tls).length > 0 ? tls : true;
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return { brokers, ...(ssl !== undefined ? { ssl } : {}), ...(sasl ? { sasl } : {}) };
}

// Topic layout: the same for the apps (when they create topics) and for `kafka:topics`.
export interface KafkaTopicSettings {
  partitions: number;
  replicationFactor: number;
  createTopics: boolean; // apps create missing topics at boot; else they wait for them
  topicsWaitMs: number;
}

export function loadKafkaTopicSettings(source: NodeJS.ProcessEnv): KafkaTopicSettings {
  const env = loadEnv(
    {
      KAFKA_PARTITIONS: commonEnv.KAFKA_PARTITIONS,
      KAFKA_REPLICATION_FACTOR: commonEnv.KAFKA_REPLICATION_FACTOR,
      // default: true in sandbox / development, false in production (topics come from `kafka:topics`)
      KAFKA_CREATE_TOPICS: bool({ default: source['ONRAMP_MODE'] !== 'production' }),
      KAFKA_TOPICS_WAIT_SECONDS: int({ default: 300, min: 0 }),
    },
    source,
  );
  return {
    partitions: env.KAFKA_PARTITIONS,
    replicationFactor: env.KAFKA_REPLICATION_FACTOR,
    createTopics: env.KAFKA_CREATE_TOPICS,
    topicsWaitMs: env.KAFKA_TOPICS_WAIT_SECONDS * 1000,
  };
}
