import { randomUUID } from 'node:crypto';

import { deadLetterTopic, Topics } from '@onramp/contracts';
import { loadInfraConfig, waitFor } from '@onramp/platform-infra';

import { kafkaTestTransports } from '../testing/kafka-test-transports';
import { ConsumedRecord } from './event-transport';
import { FetchSession, SessionRequest } from './kafka-fetch-sessions';
import { KafkaTransport } from './kafka.transport';

// The transport's consumers fetch in incremental sessions (KIP-227) against a real broker: after the
// first fetch a request names only the partitions that moved, every record still arrives in each
// partition's order, a record whose handling failed comes again, and a session the broker no longer
// knows is replaced without losing anything.
describe('KafkaTransport: incremental fetch sessions, over real Kafka', () => {
  const servers = loadInfraConfig(); // the run's, from the integration global setup
  const brokers = (servers.kafkaBrokers ?? '127.0.0.1:9092').split(',');
  const topic = deadLetterTopic(Topics.OrderFailed); // a topic the other specs leave alone
  const transports = kafkaTestTransports(brokers);
  const sessions = new Set<FetchSession>();
  const requests: SessionRequest[] = [];
  const realRequest = FetchSession.prototype.request;

  beforeAll(() => {
    // watch every session the consumers make, and what each request carries
    jest.spyOn(FetchSession.prototype, 'request').mockImplementation(function (this: FetchSession, topics) {
      sessions.add(this);
      const planned = realRequest.call(this, topics);
      if (planned) requests.push(planned);
      return planned;
    });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await transports.disconnectAll();
  });

  const transport = (clientId: string) => transports.connect(clientId);

  const publishRun = async (producer: KafkaTransport, run: string, count: number, keys: string[]) => {
    for (let i = 0; i < count; i++) {
      await producer.publish(
        keys.map((key) => ({ topic, key, value: JSON.stringify({ run, i }), headers: {} })),
      );
    }
  };

  it('delivers every record in partition order through incremental fetches, again after a failure and a lost session', async () => {
    const producer = await transport(`sessions-p-${randomUUID()}`);
    const consumer = await transport(`sessions-c-${randomUUID()}`);
    const keys = Array.from({ length: 6 }, () => randomUUID());
    const mine = new Set<string>(keys);
    const seen: ConsumedRecord[] = [];
    let failOnce = true;
    const take = async (records: ConsumedRecord[]) => {
      const ours = records.filter((r) => mine.has(r.key));
      if (failOnce && ours.some((r) => JSON.parse(r.value).run === 'b')) {
        failOnce = false;
        throw new Error('the transaction failed'); // its records must come again from the same offsets
      }
      seen.push(...ours);
    };
    await consumer.subscribe({
      groupId: `sessions-${randomUUID()}`,
      topics: [topic],
      handle: (r) => take([r]),
      handleBatch: take,
    });
    const count = (run: string) =>
      new Set(seen.filter((r) => JSON.parse(r.value).run === run).map((r) => `${r.partition}|${r.offset}`))
        .size;

    await publishRun(producer, 'a', 3, keys);
    await waitFor(() => count('a') === 18, { timeoutMs: 60_000, description: 'run a handled' });
    // the consumer's fetches are in a session by now: once nothing moved, a request names no partition
    await waitFor(
      () => requests.some((r) => r.sessionId !== 0 && r.sessionEpoch > 0 && r.topics.length === 0),
      {
        timeoutMs: 10_000,
        description: 'an incremental fetch that names no partition',
      },
    );

    await publishRun(producer, 'b', 3, keys);
    await waitFor(() => count('b') === 18, {
      timeoutMs: 60_000,
      description: 'run b handled after its failure',
    });
    expect(failOnce).toBe(false);

    // the broker forgets the session (restarted, evicted): it refuses the id, and a new one is opened
    for (const s of sessions) (s as unknown as { id: number }).id = 0x7fff_fff0;
    const before = requests.length;
    await publishRun(producer, 'c', 3, keys);
    await waitFor(() => count('c') === 18, {
      timeoutMs: 60_000,
      description: 'run c handled in a new session',
    });
    expect(requests.slice(before).some((r) => r.sessionId === 0 && r.sessionEpoch === 0)).toBe(true);

    // each key's records in log order, every record of every run exactly as published
    for (const key of keys) {
      const values = seen
        .filter((r) => r.key === key)
        .map((r) => JSON.parse(r.value) as { run: string; i: number });
      const firstSeen = values.filter(
        (v, i) => values.findIndex((w) => w.run === v.run && w.i === v.i) === i,
      );
      expect(firstSeen.map((v) => `${v.run}${v.i}`)).toEqual([
        'a0',
        'a1',
        'a2',
        'b0',
        'b1',
        'b2',
        'c0',
        'c1',
        'c2',
      ]);
    }
  });

  it('forgets the partitions a rebalance takes away, and their new member reads them on', async () => {
    const producer = await transport(`sessions-p-${randomUUID()}`);
    const groupId = `sessions-rebalance-${randomUUID()}`;
    // Enough keys that each member's half of the partitions holds some of them: with six, all of
    // them fell on the first member's half about one run in 64, and the second read nothing.
    const keys = Array.from({ length: 24 }, () => randomUUID());
    const mine = new Set<string>(keys);
    const seen: Array<ConsumedRecord & { member: string }> = [];
    const member = async (name: string) => {
      const t = await transport(`sessions-${name}-${randomUUID()}`);
      const take = async (records: ConsumedRecord[]) => {
        seen.push(...records.filter((r) => mine.has(r.key)).map((r) => ({ ...r, member: name })));
      };
      await t.subscribe({ groupId, topics: [topic], handle: (r) => take([r]), handleBatch: take });
    };
    const ofRun = (run: string) => seen.filter((r) => JSON.parse(r.value).run === run);
    const handled = (run: string) => new Set(ofRun(run).map((r) => `${r.key}|${JSON.parse(r.value).i}`)).size;

    await member('first');
    await publishRun(producer, 'd', 2, keys);
    await waitFor(() => handled('d') === 2 * keys.length, {
      timeoutMs: 60_000,
      description: 'run d handled by the first member',
    });

    const before = requests.length;
    await member('second'); // the group rebalances: the first member gives up some of the partitions
    await waitFor(() => requests.slice(before).some((r) => r.forgottenTopics.length > 0), {
      timeoutMs: 60_000,
      description: 'a fetch that forgets the partitions given away',
    });
    await publishRun(producer, 'e', 2, keys);
    await waitFor(() => handled('e') === 2 * keys.length, {
      timeoutMs: 60_000,
      description: 'run e handled by both members',
    });
    expect(new Set(ofRun('e').map((r) => r.member))).toEqual(new Set(['first', 'second']));
    // every key's records of run e in log order (a redelivery may repeat some, never reorder them)
    for (const key of keys) {
      const e = ofRun('e')
        .filter((r) => r.key === key)
        .map((r) => JSON.parse(r.value).i as number);
      expect(e.filter((i, n) => e.indexOf(i) === n)).toEqual([0, 1]);
    }
  });
});
