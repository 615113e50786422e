export * from './ids';
export * from './transport/event-transport';
export * from './transport/kafka.transport';
export * from './transport/embedded/embedded.transport';
export { EVENTBUS_SCHEMA } from './transport/embedded/eventbus-schema';
export * from './outbox/outbox-writer';
export * from './outbox/outbox-relay';
export * from './inbox/event-consumer';
export * from './messaging.module';
