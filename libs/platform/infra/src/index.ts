// The runtime infrastructure launcher: Postgres, Kafka and anvil (with the test USDC), each from an
// existing server named by its env var, else Docker, else a local process. `npm start` (through
// @onramp/platform-runner) and the test suites (through @onramp/testing) both start it; it depends
// on no test helper. The environment is read once, by loadInfraConfig (config.ts), and passed in.
export { startChain } from './chain';
export { loadInfraConfig } from './config';
export type { DockerConfig, DockerSetting, InfraConfig } from './config';
export type { ChainHandle, StartChainOptions } from './chain';
export { dockerAvailable } from './docker';
export { startKafka } from './kafka';
export type { KafkaHandle, StartKafkaOptions } from './kafka';
export { guardAgainstOrphan } from './orphan-guard';
export type { OrphanGuardOptions } from './orphan-guard';
export { createDatabase, dropDatabase, startPostgres } from './postgres';
export type { PostgresHandle, StartPostgresOptions } from './postgres';
export { findRepoRoot } from './run-dir';
export { startInfra } from './start-infra';
export type { InfraHandle, RestartableServer, StartInfraOptions } from './start-infra';
export { waitFor } from './wait-for';
export type { WaitForOptions } from './wait-for';
