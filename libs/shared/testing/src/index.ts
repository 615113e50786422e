export { startChain } from './infra/chain';
export type { ChainHandle, StartChainOptions } from './infra/chain';
export { dockerAvailable } from './infra/docker';
export { startKafka } from './infra/kafka';
export type { KafkaHandle, StartKafkaOptions } from './infra/kafka';
export { guardAgainstOrphan } from './infra/orphan-guard';
export type { OrphanGuardOptions } from './infra/orphan-guard';
export { createDatabase, startPostgres } from './infra/postgres';
export type { PostgresHandle, StartPostgresOptions } from './infra/postgres';
export { findRepoRoot } from './infra/run-dir';
export { startInfra } from './infra/start-infra';
export type { InfraHandle, RestartableServer, StartInfraOptions } from './infra/start-infra';
export { startRpcFaultProxy } from './chain/rpc-fault-proxy';
export type { RpcFault, RpcFaultProxy } from './chain/rpc-fault-proxy';
export { waitFor } from './wait-for';
export type { WaitForOptions } from './wait-for';
export { startTestTokenIssuer } from './auth/test-token-issuer';
export type { TestTokenIssuer, TestTokenOptions } from './auth/test-token-issuer';
export {
  brokers,
  EventCollector,
  ensureTopics,
  envelope,
  produce,
  produceMany,
  startGroupAtEnd,
  testKafka,
} from './kafka/kafka-events';
export { TopicRecorder } from './kafka/topic-recorder';
export type { RecordedEvent } from './kafka/topic-recorder';
export { ProgrammableReceiver } from './webhooks/programmable-receiver';
export type { Answer, ReceivedDelivery } from './webhooks/programmable-receiver';
export { startServiceTestApp } from './nest/service-test-app';
export type { ServiceTestAppOptions } from './nest/service-test-app';
