// The infrastructure launcher lives in @onramp/platform-infra (npm start uses it too); re-exported
// here so a test has one import for its helpers.
export {
  createDatabase,
  dockerAvailable,
  dropDatabase,
  findRepoRoot,
  guardAgainstOrphan,
  loadInfraConfig,
  startChain,
  startInfra,
  startKafka,
  startPostgres,
  waitFor,
} from '@onramp/platform-infra';
export type {
  ChainHandle,
  InfraConfig,
  InfraHandle,
  KafkaHandle,
  OrphanGuardOptions,
  PostgresHandle,
  RestartableServer,
  StartChainOptions,
  StartInfraOptions,
  StartKafkaOptions,
  StartPostgresOptions,
  WaitForOptions,
} from '@onramp/platform-infra';
export { startRpcFaultProxy } from './chain/rpc-fault-proxy';
export type { RpcFault, RpcFaultProxy } from './chain/rpc-fault-proxy';
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
export { eventsAbout, publishedEvents } from './kafka/published-events';
export { readTopics } from './kafka/read-topics';
export type { ReadRecord } from './kafka/read-topics';
export { TopicRecorder } from './kafka/topic-recorder';
export type { RecordedEvent } from './kafka/topic-recorder';
export { ProgrammableReceiver } from './webhooks/programmable-receiver';
export { ORDER_WEBHOOK_FIELDS } from './webhooks/order-webhook-fields';
export type { Answer, ReceivedDelivery } from './webhooks/programmable-receiver';
export { startMerchantServiceTestApp, startServiceTestApp } from './nest/service-test-app';
export type { MerchantServiceTestApp, ServiceTestAppOptions } from './nest/service-test-app';
export { createTestDatabase, startHttpTestApp } from './nest/http-test-app';
export type { TestDatabase } from './nest/http-test-app';
export { operatorHeaders, TEST_OPERATOR } from './auth/operator-headers';
export { exportToWorkers, loadTestEnv, testDatabaseServer } from './test-env';
export type { TestEnv } from './test-env';
export { demoKycUser } from './fixtures/kyc-user';
export type { DemoKycUser } from './fixtures/kyc-user';
