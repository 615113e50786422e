import { homedir } from 'node:os';
import { join } from 'node:path';

import { LocalChainConfig, loadLocalChainConfig } from '@onramp/chain';
import { loadEnv } from '@onramp/config';

// Whether Postgres and Kafka may run as containers: ONRAMP_DOCKER=0 never; set to anything else, when
// an engine answers; unset, the same, except that the runner keeps a data dir's state in local servers.
export type DockerSetting = 'unset' | 'off' | 'on';

export interface DockerConfig {
  setting: DockerSetting; // ONRAMP_DOCKER
  host: string; // DOCKER_HOST, default the local socket
}

// The one reader of the environment in this lib: the existing servers and keys the launcher is
// pointed at, and where its local servers come from. Every start function takes it as an argument;
// `npm start` (the runner), tools/run/infra.ts and the integration suite's global setup parse it.
export interface InfraConfig {
  // Existing servers (unset: start one): DATABASE_URL, KAFKA_BROKERS; RPC_URL is in `chain`.
  databaseUrl?: string;
  kafkaBrokers?: string;
  usdcAddress?: string; // USDC_ADDRESS: the token on RPC_URL's chain (default: deploy one)
  settlementSignerKey?: string; // SETTLEMENT_SIGNER_KEY: the hot wallet to fund
  usdcOwnerKey?: string; // USDC_OWNER_KEY: the test token's owner (default: anvil's deployer)
  chain: LocalChainConfig; // ANVIL_BIN, ONRAMP_CACHE, RPC_URL
  docker: DockerConfig;
  kafkaLibsDir: string; // KAFKA_LIBS_DIR: the broker's jar cache, default <ONRAMP_CACHE>/kafka
  kafkaVersion: string; // KAFKA_VERSION
  // What a local Kafka broker's start script inherits (PATH, JAVA_HOME, the KAFKA_* settings above).
  scriptEnv: NodeJS.ProcessEnv;
}

// Unset and empty both mean "not given", as the launcher always treated them.
const given = (raw: string | undefined): string | undefined => raw || undefined;
const asIs = (raw: string | undefined): string | undefined => raw;

export function loadInfraConfig(source: NodeJS.ProcessEnv = process.env): InfraConfig {
  const env = loadEnv(
    {
      DATABASE_URL: given,
      KAFKA_BROKERS: given,
      USDC_ADDRESS: given,
      SETTLEMENT_SIGNER_KEY: given,
      USDC_OWNER_KEY: given,
      ONRAMP_DOCKER: asIs,
      DOCKER_HOST: asIs,
      KAFKA_LIBS_DIR: asIs,
      KAFKA_VERSION: asIs,
    },
    source,
  );
  const chain = loadLocalChainConfig(source);
  return {
    databaseUrl: env.DATABASE_URL,
    kafkaBrokers: env.KAFKA_BROKERS,
    usdcAddress: env.USDC_ADDRESS,
    settlementSignerKey: env.SETTLEMENT_SIGNER_KEY,
    usdcOwnerKey: env.USDC_OWNER_KEY,
    chain,
    docker: {
      setting: env.ONRAMP_DOCKER === undefined ? 'unset' : env.ONRAMP_DOCKER === '0' ? 'off' : 'on',
      host: env.DOCKER_HOST ?? 'unix:///var/run/docker.sock',
    },
    // as deploy/local/kafka-from-maven.sh defaults them
    kafkaLibsDir: env.KAFKA_LIBS_DIR ?? join(chain.cacheDir ?? join(homedir(), '.cache', 'onramp'), 'kafka'),
    kafkaVersion: env.KAFKA_VERSION ?? '4.1.1',
    scriptEnv: source,
  };
}
