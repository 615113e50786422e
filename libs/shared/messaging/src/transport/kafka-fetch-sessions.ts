// kafkajs 2.2.4 sends every fetch in full: each of the consumer's partitions with its offset in the
// request, and each of them back in the answer, with or without records. A service's consumer is
// assigned every partition of every topic it handles (orders: six topics of twelve partitions), and
// under a trickle of events a fetch returns as soon as one partition has a record, so nearly all of
// the request's encoding, the broker's parsing and answering and the client's decoding is about
// partitions with nothing new. Measured with a load of our own (six topics, four consumers, 50
// records/s): 12 partitions a topic cost the broker 31-40 % of a core and the consumers' process
// 49-51 %, 1 partition a topic 19-22 % and 28-31 % (docs/performance-journal.md, "incremental fetch sessions").
//
// Kafka's incremental fetch sessions (KIP-227, fetch v7 and later) are the protocol's answer, and
// the Java client's default: the first fetch opens a session on the broker with the full list; each
// later one names only the partitions whose fetch offset changed (and those to forget), and the
// answer names only the partitions with something new (records, a moved high watermark, an error).
// kafkajs encodes the session fields but always sends "no session". Done here, per broker
// connection of a consumer:
//
// - The broker keeps each partition's fetch offset from the last request that named it, and answers
//   from there. A partition whose records the consumer did not take (a batch cut short by a
//   rebalance, a handler that failed) keeps its offset, is not named again and is answered from the
//   same offset again: what a full fetch would have asked for.
// - Anything unexpected ends the session and the next fetch opens a new one in full: an error from
//   the request (a lost connection, a partition's error, whatever kafkajs then recovers from), and a
//   session the broker no longer knows (restarted, evicted) or whose epoch it refuses; for those two
//   the fetch is sent again at once, in full.
// - Only one fetch at a time uses the session (kafkajs has one fetcher per broker); a second one at
//   the same moment goes out in full without a session, as before.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal class, no types
const Broker = require('kafkajs/src/broker') as BrokerClass;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal tables, no types
const apiKeys = require('kafkajs/src/protocol/requests/apiKeys') as { Fetch: number };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal tables, no types
const { requests } = require('kafkajs/src/protocol/requests') as { requests: { Fetch: unknown } };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the version the fix is written for
const { version } = require('kafkajs/package.json') as { version: string };

/** The first fetch version with sessions (KIP-227). */
const SESSIONS_FROM_VERSION = 7;
const FETCH_SESSION_ID_NOT_FOUND = 70;
const INVALID_FETCH_SESSION_EPOCH = 71;
const MAX_EPOCH = 2 ** 31 - 1;

export interface FetchPartition {
  partition: number;
  fetchOffset: string;
  maxBytes: number;
}

export interface FetchTopic {
  topic: string;
  partitions: FetchPartition[];
}

export interface ForgottenTopic {
  topic: string;
  partitions: number[];
}

/** What one fetch request carries about its session and partitions. */
export interface SessionRequest {
  sessionId: number;
  sessionEpoch: number;
  topics: FetchTopic[];
  forgottenTopics: ForgottenTopic[];
}

interface SentPartition {
  topic: string;
  partition: number;
  fetchOffset: string;
  maxBytes: number;
}

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * One consumer's fetch session with one broker: which partitions, at which offsets, the broker
 * holds for it, and the epoch the next request must carry. `request` plans a fetch, and exactly one
 * of `answered` or `reset` must follow it.
 */
export class FetchSession {
  private id = 0; // 0: no session; the next request (epoch 0) asks for one
  private epoch = 0;
  private held = new Map<string, SentPartition>();
  private planned: { full: boolean; wanted: Map<string, SentPartition> } | undefined;

  /** The next request for these partitions, or undefined while another fetch uses the session. */
  request(topics: FetchTopic[]): SessionRequest | undefined {
    if (this.planned) return undefined;
    const wanted = new Map<string, SentPartition>();
    for (const { topic, partitions } of topics)
      for (const p of partitions) wanted.set(keyOf(topic, p.partition), { topic, ...p });
    const full = this.id === 0;
    this.planned = { full, wanted };
    if (full) return { sessionId: 0, sessionEpoch: 0, topics, forgottenTopics: [] };
    const changed: SentPartition[] = [];
    for (const [key, p] of wanted) {
      const held = this.held.get(key);
      if (!held || held.fetchOffset !== p.fetchOffset || held.maxBytes !== p.maxBytes) changed.push(p);
    }
    const forgotten: SentPartition[] = [];
    for (const [key, p] of this.held) if (!wanted.has(key)) forgotten.push(p);
    return {
      sessionId: this.id,
      sessionEpoch: this.epoch,
      topics: groupByTopic(changed, (p) => ({
        partition: p.partition,
        fetchOffset: p.fetchOffset,
        maxBytes: p.maxBytes,
      })),
      forgottenTopics: groupByTopic(forgotten, (p) => p.partition),
    };
  }

  /** The broker answered the planned request without a top-level error, with this session id. */
  answered(sessionId: number): void {
    const planned = this.planned;
    this.planned = undefined;
    if (!planned) return;
    if (planned.full) {
      // 0: the broker keeps no session for us (its cache is full, say); the next fetch asks again
      this.id = sessionId;
      this.epoch = 1;
      this.held = sessionId === 0 ? new Map() : planned.wanted;
      return;
    }
    this.epoch = this.epoch === MAX_EPOCH ? 1 : this.epoch + 1;
    this.held = planned.wanted;
  }

  /** The planned request failed or the broker refused the session: the next fetch opens a new one. */
  reset(): void {
    this.planned = undefined;
    this.id = 0;
    this.epoch = 0;
    this.held = new Map();
  }

  /** Whether a request is planned and not yet answered. */
  get busy(): boolean {
    return this.planned !== undefined;
  }
}

function groupByTopic<P extends { topic: string }, T>(parts: P[], item: (p: P) => T) {
  const byTopic = new Map<string, T[]>();
  for (const p of parts) {
    const list = byTopic.get(p.topic);
    if (list) list.push(item(p));
    else byTopic.set(p.topic, [item(p)]);
  }
  return [...byTopic].map(([topic, partitions]) => ({ topic, partitions }));
}

export interface FetchArgs {
  replicaId?: number;
  isolationLevel?: number;
  maxWaitTime?: number;
  minBytes?: number;
  maxBytes?: number;
  topics: FetchTopic[];
  rackId?: string;
}

interface FetchResponse {
  errorCode?: number;
  sessionId?: number;
  responses: unknown[];
}

type ProtocolRequest = { request: { apiVersion: number } };
type BuildFetch = (args: Record<string, unknown>) => ProtocolRequest;

interface BrokerState {
  lookupRequest(apiKey: number, definitions: unknown): BuildFetch;
  connectionPool: { send(request: ProtocolRequest): Promise<FetchResponse> };
  disconnect(): Promise<void>;
  fetch(args: FetchArgs): Promise<FetchResponse>;
}

interface BrokerClass {
  prototype: BrokerState;
}

const sessions = new WeakMap<object, FetchSession>();

/** The session this broker connection's fetches use (tests look at it). */
export function fetchSessionOf(broker: object): FetchSession | undefined {
  return sessions.get(broker);
}

type Fetch = (this: BrokerState, args: FetchArgs) => Promise<FetchResponse>;

export function withFetchSessions(fullFetch: Fetch): Fetch {
  return async function fetch(this: BrokerState, args: FetchArgs): Promise<FetchResponse> {
    let session = sessions.get(this);
    if (!session) sessions.set(this, (session = new FetchSession()));
    const first = await sessionFetch(this, session, args);
    if (first !== undefined) return first;
    // the broker no longer knew the session or refused its epoch: a new one, in full, at once
    return (await sessionFetch(this, session, args)) ?? fullFetch.call(this, args);
  };

  // The answer, or undefined when the broker refused the session (which is then reset).
  async function sessionFetch(broker: BrokerState, session: FetchSession, args: FetchArgs) {
    const plan = session.request(args.topics);
    if (!plan) return fullFetch.call(broker, args);
    const build = broker.lookupRequest(apiKeys.Fetch, requests.Fetch);
    const request = build({
      replicaId: args.replicaId,
      isolationLevel: args.isolationLevel,
      maxWaitTime: args.maxWaitTime ?? 5000, // kafkajs' defaults for these three
      minBytes: args.minBytes ?? 1,
      maxBytes: args.maxBytes ?? 10485760,
      rackId: args.rackId ?? '',
      ...plan,
    });
    if (request.request.apiVersion < SESSIONS_FROM_VERSION) {
      session.reset();
      return fullFetch.call(broker, args);
    }
    let response: FetchResponse;
    try {
      response = await broker.connectionPool.send(request);
    } catch (err) {
      session.reset();
      // as kafkajs' own send does: a closed connection is dropped, to be made again
      if ((err as Error).name === 'KafkaJSConnectionClosedError') await broker.disconnect();
      throw err;
    }
    const errorCode = response.errorCode ?? 0;
    if (errorCode === FETCH_SESSION_ID_NOT_FOUND || errorCode === INVALID_FETCH_SESSION_EPOCH) {
      session.reset();
      return undefined;
    }
    if (errorCode !== 0)
      session.reset(); // kafkajs reads no top-level error; the next fetch starts afresh
    else session.answered(response.sessionId ?? 0);
    return response;
  }
}

const patchedFetch = withFetchSessions(Broker.prototype.fetch);

// Applied when the transport is loaded, and only to the version it was written for.
export function fixKafkaFetchSessions(): boolean {
  if (version !== '2.2.4') return false;
  Broker.prototype.fetch = patchedFetch;
  return true;
}
