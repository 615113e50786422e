import { KafkaTransport } from '../transport/kafka.transport';

// For the Kafka transport's integration specs: connected transports on the run's broker, with the
// settings those specs share (three partitions a topic, offsets committed every 200 ms), all
// disconnected at once in the spec's afterAll.
export function kafkaTestTransports(brokers: string[]) {
  const made: KafkaTransport[] = [];
  return {
    async connect(clientId: string): Promise<KafkaTransport> {
      const t = new KafkaTransport({
        brokers,
        clientId,
        partitions: 3,
        replicationFactor: 1,
        commitIntervalMs: 200,
      });
      made.push(t);
      await t.connect();
      return t;
    },
    async disconnectAll(): Promise<void> {
      await Promise.all(made.map((t) => t.disconnect()));
    },
  };
}
