import {
  BeforeApplicationShutdown,
  DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';

import { EventConsumer } from './inbox/event-consumer';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboxWriter } from './outbox/outbox-writer';
import { EmbeddedTransport } from './transport/embedded/embedded.transport';
import { EVENT_TRANSPORT, EventTransport } from './transport/event-transport';
import { KafkaTransport } from './transport/kafka.transport';
import { TransportConfig } from './transport/transport-config';

export interface MessagingModuleOptions {
  schema: string;
  service: string; // consumer group and client id
  // From the service's config (its runtime's transport part).
  transport: TransportConfig;
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

export function createTransport(service: string, config: TransportConfig): EventTransport {
  if (config.kind === 'embedded') {
    return new EmbeddedTransport({
      databaseUrl: config.databaseUrl,
      clientId: `onramp-${service}`,
      partitions: config.partitions,
      preparedStatements: config.preparedStatements,
    });
  }
  return new KafkaTransport({
    ...config.client,
    ...config.topics,
    clientId: `onramp-${service}`,
    sessionTimeoutMs: config.sessionTimeoutMs,
    commitIntervalMs: config.commitIntervalMs,
  });
}

// Starts the relay and the consumer once every module registered its handlers (onModuleInit),
// and stops them before the DataSource closes: in beforeApplicationShutdown, which Nest runs for
// every module before any onApplicationShutdown (where TypeORM destroys the DataSource). A handler
// still running then finishes against a live database; one stuck in its retries gives up (the
// event is redelivered after the restart), so the transport's disconnect cannot wait forever.
@Injectable()
export class MessagingLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly log = new Logger('Messaging');

  constructor(
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
    private readonly relay: OutboxRelay,
    private readonly consumer: EventConsumer,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // What a handler wrote to the outbox goes out right after its commit; a handler that wrote no
    // event (a webhook delivery, a settlement row) costs the relay nothing.
    this.consumer.onCommitted((_type, wroteEvents) => {
      if (wroteEvents) this.relay.nudge();
    });
    await this.transport.connect();
    this.relay.start();
    await this.consumer.start();
    this.log.log('event transport connected');
  }

  isReady(): boolean {
    return !this.consumer.hasHandlers() || this.transport.isConsuming();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.consumer.stop();
    await this.relay.stop();
    await this.transport.disconnect();
  }

  // Idempotent repeat, for a container that skips the hook above (a test closing a module without
  // the shutdown sequence).
  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
    await this.transport.disconnect();
  }
}

@Module({})
export class MessagingModule {
  static forService(opts: MessagingModuleOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: opts },
        {
          provide: EVENT_TRANSPORT,
          useFactory: () => createTransport(opts.service, opts.transport),
        },
        { provide: OutboxWriter, useValue: new OutboxWriter(opts.schema) },
        {
          provide: OutboxRelay,
          inject: [DataSource, EVENT_TRANSPORT, OutboxWriter],
          useFactory: (ds: DataSource, t: EventTransport, writer: OutboxWriter) =>
            new OutboxRelay(ds, t, { schema: opts.schema, eventsPrepared: () => writer.prepared }),
        },
        {
          provide: EventConsumer,
          inject: [DataSource, EVENT_TRANSPORT, OutboxWriter],
          useFactory: (ds: DataSource, t: EventTransport, writer: OutboxWriter) =>
            new EventConsumer(ds, t, {
              schema: opts.schema,
              groupId: `onramp-${opts.service}`,
              eventsPrepared: () => writer.prepared,
            }),
        },
        MessagingLifecycle,
      ],
      exports: [EVENT_TRANSPORT, OutboxWriter, OutboxRelay, EventConsumer, MessagingLifecycle],
    };
  }
}
