import {
  DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';

import { commonEnv, int, loadEnv } from '@onramp/config';

import { EventConsumer } from './inbox/event-consumer';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboxWriter } from './outbox/outbox-writer';
import { EmbeddedTransport } from './transport/embedded/embedded.transport';
import { EVENT_TRANSPORT, EventTransport } from './transport/event-transport';
import { loadKafkaClientConfig, loadKafkaTopicSettings } from './transport/kafka-client-config';
import { KafkaTransport } from './transport/kafka.transport';

export interface MessagingModuleOptions {
  schema: string;
  service: string; // consumer group and client id
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

export function createTransport(service: string): EventTransport {
  const { EVENT_TRANSPORT } = loadEnv({ EVENT_TRANSPORT: commonEnv.EVENT_TRANSPORT });
  if (EVENT_TRANSPORT === 'embedded') {
    const env = loadEnv({
      DATABASE_URL: commonEnv.DATABASE_URL,
      KAFKA_PARTITIONS: commonEnv.KAFKA_PARTITIONS,
    });
    return new EmbeddedTransport({
      databaseUrl: env.DATABASE_URL,
      clientId: `onramp-${service}`,
      partitions: env.KAFKA_PARTITIONS,
    });
  }
  const env = loadEnv({
    // how long a crashed consumer holds its partitions before the group moves on (broker minimum 6 s)
    KAFKA_SESSION_TIMEOUT_MS: int({ default: 30_000, min: 6_000 }),
  });
  return new KafkaTransport({
    ...loadKafkaClientConfig(),
    ...loadKafkaTopicSettings(),
    clientId: `onramp-${service}`,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
  });
}

// Starts the relay and the consumer once every module registered its handlers (onModuleInit),
// and stops them before the DataSource closes.
@Injectable()
export class MessagingLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Messaging');

  constructor(
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
    private readonly relay: OutboxRelay,
    private readonly consumer: EventConsumer,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // What a handler wrote to the outbox goes out right after its commit.
    this.consumer.onCommitted(() => this.relay.nudge());
    await this.transport.connect();
    this.relay.start();
    await this.consumer.start();
    this.log.log('event transport connected');
  }

  isReady(): boolean {
    return !this.consumer.hasHandlers() || this.transport.isConsuming();
  }

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
        { provide: EVENT_TRANSPORT, useFactory: () => createTransport(opts.service) },
        { provide: OutboxWriter, useValue: new OutboxWriter(opts.schema) },
        {
          provide: OutboxRelay,
          inject: [DataSource, EVENT_TRANSPORT],
          useFactory: (ds: DataSource, t: EventTransport) => new OutboxRelay(ds, t, { schema: opts.schema }),
        },
        {
          provide: EventConsumer,
          inject: [DataSource, EVENT_TRANSPORT],
          useFactory: (ds: DataSource, t: EventTransport) =>
            new EventConsumer(ds, t, { schema: opts.schema, groupId: `onramp-${opts.service}` }),
        },
        MessagingLifecycle,
      ],
      exports: [EVENT_TRANSPORT, OutboxWriter, OutboxRelay, EventConsumer, MessagingLifecycle],
    };
  }
}
