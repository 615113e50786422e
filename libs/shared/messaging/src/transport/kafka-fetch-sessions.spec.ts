import {
  FetchArgs,
  FetchSession,
  FetchTopic,
  fetchSessionOf,
  fixKafkaFetchSessions,
  withFetchSessions,
} from './kafka-fetch-sessions';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the class the fix patches
const Broker = require('kafkajs/src/broker') as { prototype: { fetch: unknown } };

const at = (topic: string, offsets: Record<number, string>): FetchTopic => ({
  topic,
  partitions: Object.entries(offsets).map(([p, fetchOffset]) => ({
    partition: +p,
    fetchOffset,
    maxBytes: 1024,
  })),
});

describe('FetchSession (KIP-227 incremental fetches)', () => {
  it('asks for a session in full, then names only the partitions whose offset moved', () => {
    const s = new FetchSession();
    const first = s.request([at('a', { 0: '5', 1: '7' }), at('b', { 0: '0' })]);
    expect(first).toEqual({
      sessionId: 0,
      sessionEpoch: 0,
      topics: [at('a', { 0: '5', 1: '7' }), at('b', { 0: '0' })],
      forgottenTopics: [],
    });
    s.answered(42);

    expect(s.request([at('a', { 0: '5', 1: '7' }), at('b', { 0: '0' })])).toEqual({
      sessionId: 42,
      sessionEpoch: 1,
      topics: [],
      forgottenTopics: [],
    });
    s.answered(42);

    expect(s.request([at('a', { 0: '6', 1: '7' }), at('b', { 0: '0' })])).toEqual({
      sessionId: 42,
      sessionEpoch: 2,
      topics: [at('a', { 0: '6' })],
      forgottenTopics: [],
    });
    s.answered(42);
    // the broker holds a:0 at 6 now
    expect(s.request([at('a', { 0: '6', 1: '7' }), at('b', { 0: '0' })])?.topics).toEqual([]);
  });

  it('forgets partitions no longer fetched and names new ones', () => {
    const s = new FetchSession();
    s.request([at('a', { 0: '1', 1: '1' })]);
    s.answered(9);
    const next = s.request([at('a', { 0: '1' }), at('c', { 3: '0' })]);
    expect(next?.topics).toEqual([at('c', { 3: '0' })]);
    expect(next?.forgottenTopics).toEqual([{ topic: 'a', partitions: [1] }]);
    s.answered(9);
    // a forgotten partition fetched again is new to the session
    expect(s.request([at('a', { 0: '1', 1: '1' }), at('c', { 3: '0' })])?.topics).toEqual([
      at('a', { 1: '1' }),
    ]);
  });

  it('keeps the offsets of the last request the broker answered, not of a failed one', () => {
    const s = new FetchSession();
    s.request([at('a', { 0: '1' })]);
    s.answered(9);
    s.request([at('a', { 0: '2' })]);
    s.reset(); // the request failed: nobody knows what the broker holds
    expect(s.request([at('a', { 0: '2' })])).toMatchObject({
      sessionId: 0,
      sessionEpoch: 0,
      topics: [at('a', { 0: '2' })],
    });
  });

  it('stays in full fetches while the broker keeps no session for it', () => {
    const s = new FetchSession();
    s.request([at('a', { 0: '1' })]);
    s.answered(0);
    expect(s.request([at('a', { 0: '1' })])).toMatchObject({
      sessionId: 0,
      sessionEpoch: 0,
      topics: [at('a', { 0: '1' })],
    });
  });

  it('plans one fetch at a time', () => {
    const s = new FetchSession();
    expect(s.request([at('a', { 0: '1' })])).toBeDefined();
    expect(s.busy).toBe(true);
    expect(s.request([at('a', { 0: '1' })])).toBeUndefined();
    s.answered(3);
    expect(s.busy).toBe(false);
  });

  it('wraps the epoch to 1 after the largest int32', () => {
    const s = new FetchSession();
    s.request([]);
    s.answered(5);
    (s as unknown as { epoch: number }).epoch = 2 ** 31 - 1;
    expect(s.request([])?.sessionEpoch).toBe(2 ** 31 - 1);
    s.answered(5);
    expect(s.request([])?.sessionEpoch).toBe(1);
  });
});

describe('withFetchSessions (a broker connection of a consumer)', () => {
  interface Sent {
    sessionId: number;
    sessionEpoch: number;
    topics: FetchTopic[];
  }
  // kafkajs' broker as the wrapper uses it: the request builder it negotiated and its connection pool
  const fakeBroker = (answers: Array<Record<string, unknown> | Error>, apiVersion = 11) => {
    const sent: Sent[] = [];
    const broker = {
      sent,
      disconnects: 0,
      lookupRequest: () => (args: Sent) => ({ request: { apiVersion }, args }),
      connectionPool: {
        send: async (req: { args: Sent }) => {
          sent.push(req.args);
          const answer = answers.shift();
          if (answer instanceof Error) throw answer;
          return { responses: [], ...answer };
        },
      },
      disconnect: async () => {
        broker.disconnects++;
      },
      fetch: async () => ({ responses: [] }),
    };
    return broker;
  };
  const fullFetch = jest.fn(async () => ({ responses: ['full'] }));
  const fetch = withFetchSessions(fullFetch as never);
  const args: FetchArgs = { maxWaitTime: 100, topics: [at('a', { 0: '1', 1: '4' })] };

  beforeEach(() => fullFetch.mockClear());

  it('opens a session and then fetches incrementally', async () => {
    const broker = fakeBroker([
      { errorCode: 0, sessionId: 77 },
      { errorCode: 0, sessionId: 77 },
    ]);
    await fetch.call(broker as never, args);
    await fetch.call(broker as never, args);
    expect(broker.sent.map((s) => [s.sessionId, s.sessionEpoch, s.topics.length])).toEqual([
      [0, 0, 1],
      [77, 1, 0],
    ]);
    expect(fetchSessionOf(broker)?.busy).toBe(false);
  });

  it('opens a new session at once when the broker no longer knows the old one or refuses its epoch', async () => {
    for (const errorCode of [70, 71]) {
      const broker = fakeBroker([
        { errorCode: 0, sessionId: 77 },
        { errorCode, sessionId: 0 },
        { errorCode: 0, sessionId: 78, responses: ['records'] },
      ]);
      await fetch.call(broker as never, args);
      const answer = await fetch.call(broker as never, args);
      expect(answer.responses).toEqual(['records']);
      expect(broker.sent.map((s) => [s.sessionId, s.sessionEpoch])).toEqual([
        [0, 0],
        [77, 1],
        [0, 0],
      ]);
    }
  });

  it('ends the session on a failed request, and drops a closed connection as kafkajs does', async () => {
    const closed = Object.assign(new Error('closed'), { name: 'KafkaJSConnectionClosedError' });
    const broker = fakeBroker([{ errorCode: 0, sessionId: 77 }, closed, { errorCode: 0, sessionId: 80 }]);
    await fetch.call(broker as never, args);
    await expect(fetch.call(broker as never, args)).rejects.toBe(closed);
    expect(broker.disconnects).toBe(1);
    await fetch.call(broker as never, args);
    expect(broker.sent.at(-1)).toMatchObject({ sessionId: 0, sessionEpoch: 0 });
  });

  it('leaves brokers without sessions (fetch below v7) to kafkajs full fetches', async () => {
    const broker = fakeBroker([], 6);
    expect((await fetch.call(broker as never, args)).responses).toEqual(['full']);
    expect(broker.sent).toEqual([]);
  });

  it('patches Broker.fetch once, however many transports are made', () => {
    expect(fixKafkaFetchSessions()).toBe(true);
    const patched = Broker.prototype.fetch;
    expect(fixKafkaFetchSessions()).toBe(true);
    expect(Broker.prototype.fetch).toBe(patched);
  });
});
