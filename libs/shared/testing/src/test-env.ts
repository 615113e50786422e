import { int, loadEnv } from '@onramp/config';

// The one reader (and writer) of the environment in the test helpers: the integration run's global
// setup starts Postgres, Kafka and anvil once and exports their addresses to the jest workers it
// forks (exportToWorkers); helpers and specs read them back here, never from the environment directly.
export interface TestEnv {
  databaseServer?: string; // DATABASE_URL: the run's Postgres (each suite creates its own database on it)
  kafkaBrokers: string[]; // KAFKA_BROKERS, default 127.0.0.1:9092
  kafkaPartitions: number; // KAFKA_PARTITIONS: partitions of a topic the helpers create, default 12
  rpcUrl?: string; // RPC_URL: the run's chain
}

const given = (raw: string | undefined): string | undefined => raw || undefined;

export function loadTestEnv(source: NodeJS.ProcessEnv = process.env): TestEnv {
  const env = loadEnv(
    {
      DATABASE_URL: given,
      KAFKA_BROKERS: given,
      KAFKA_PARTITIONS: int({ default: 12, min: 1 }),
      RPC_URL: given,
    },
    source,
  );
  return {
    databaseServer: env.DATABASE_URL,
    kafkaBrokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    kafkaPartitions: env.KAFKA_PARTITIONS,
    rpcUrl: env.RPC_URL,
  };
}

// The run's Postgres server, which a suite needs to create its database.
export function testDatabaseServer(): string {
  const server = loadTestEnv().databaseServer;
  if (!server) throw new Error('DATABASE_URL is not set: run with jest.integration.config.js');
  return server;
}

// The global setup's servers, for every jest worker forked after it returns.
export function exportToWorkers(vars: Record<string, string>): void {
  Object.assign(process.env, vars);
}
