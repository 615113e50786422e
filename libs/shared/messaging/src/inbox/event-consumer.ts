import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import {
  deadLetterTopic,
  EventEnvelope,
  EventMap,
  EventType,
  InvalidEventError,
  parseEnvelope,
} from '@onramp/contracts';
import { withLogContext } from '@onramp/logging';
import { inSpanFrom, inTraceOf, metrics, SpanKind } from '@onramp/observability';
import {
  nothingSentYet,
  noteXactLocksHeld,
  PG_UNIQUE_VIOLATION,
  writeWithNextStatement,
  XactLock,
  xactLocksQuery,
} from '@onramp/persistence';

import { ConsumedRecord, EventTransport } from '../transport/event-transport';

// Consumer lag as time: from the moment the event occurred (its envelope's occurredAt, set in the
// producer's transaction) to the moment this consumer starts handling it. It covers the outbox relay,
// the broker and the consumer's backlog, and means the same on Kafka and on the embedded transport.
const consumerLag = metrics.histogram(
  'messaging_consumer_lag_seconds',
  'Time from an event occurring to a consumer starting to handle it, by consumer group and topic.',
);
const deadLettered = metrics.counter(
  'messaging_dead_lettered_total',
  'Events sent to the dead-letter topic, by consumer group and topic.',
);

const MAX_RETRY_DELAY_MS = 5_000;

export type EventHandler<K extends EventType> = (
  event: EventEnvelope<K, EventMap[K]>,
  manager: EntityManager,
) => Promise<void>;

// The advisory locks a handler takes before anything else, and the work it can do for several of its
// events at once (see EventConsumer.on).
export interface EventHandlerOptions<K extends EventType> {
  locksFirst?: (event: EventEnvelope<K, EventMap[K]>) => XactLock[];
  prepareRun?: RunPreparer<K>;
  // Nobody waits on this handler (no reply, no next step of a payout): when the consumer is busy,
  // its events may wait this long for others to share their transaction (SubscribeOptions.mayWaitMs).
  mayWaitMs?: number;
}

// Called in a batch's transaction with each run of its new events of one type that follow each
// other in the batch (two or more), right before the first of them is handled: one statement for
// what each handler would have sent on its own. The handlers still run, each for its event, and
// must work without it (an event handled alone, or a batch retried one by one, has no run). The
// preparer runs in no event's context: what it does for the run's i-th event that logs, or reads the
// current trace (an outgoing event's trace headers, a stored traceparent), it does in
// `inEventContext(i, work)`, in that event's log context and trace (synchronous, no span of its own).
export type RunPreparer<K extends EventType> = (
  events: ReadonlyArray<EventEnvelope<K, EventMap[K]>>,
  manager: EntityManager,
  inEventContext: <T>(i: number, work: () => T) => T,
) => Promise<void>;

// Told after a handler's transaction committed (not for a redelivery that was a no-op), and whether
// it may have written events to the outbox (false only when it surely did not: see eventsPrepared).
export type CommittedListener = (type: EventType, wroteEvents: boolean) => void;

// Told once a handler's transaction ended, whether it committed (afterTransaction).
export type TransactionEndHook = (committed: boolean) => void;

export interface EventConsumerOptions {
  schema: string;
  groupId: string; // one consumer group per service
  maxAttempts?: number;
  retryBaseDelayMs?: number;
  // How many events this process's outbox writer has prepared so far (OutboxWriter.prepared). A
  // transaction during which it did not move wrote no event; one during which it moved may have (or
  // another writer of the process did meanwhile), which only costs the relay a look.
  eventsPrepared?: () => number;
}

// Runs each handler in one transaction with the inbox mark of the event id, so a redelivered event
// is a no-op and a half-applied one is impossible. A handler that keeps failing is dead-lettered
// with its error after bounded retries; the partition moves on.
//
// A transport hands over what is waiting as a batch (handleBatch: the partitions one append woke on
// the embedded bus, a Kafka fetch's partitions, each in log order): its events are
// handled in ONE transaction (their inbox marks in one INSERT, then each handler in log order), so
// a burst costs one BEGIN/COMMIT and one inbox statement instead of one each per event. Nothing
// about the guarantee changes: every event's inbox mark commits with its handler's writes or not
// at all. If the batch transaction fails for any reason, it rolled back whole, and the same events
// are taken one by one as before, so a poison event is retried, isolated and dead-lettered alone.
export class EventConsumer {
  private readonly log = new Logger(EventConsumer.name);
  private readonly handlers = new Map<string, EventHandler<EventType>>();
  private readonly locksOf = new Map<string, (event: AnyEnvelope) => XactLock[]>();
  private readonly preparers = new Map<string, RunPreparer<EventType>>();
  private readonly mayWait = new Map<string, number>();
  private readonly committedListeners: CommittedListener[] = [];
  // What handlers asked to run once their transaction ended, by the transaction's manager.
  private readonly endHooks = new WeakMap<EntityManager, TransactionEndHook[]>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly dataSource: DataSource,
    private readonly transport: EventTransport,
    private readonly opts: EventConsumerOptions,
  ) {}

  // `locksFirst` names the advisory locks the handler needs before its first statement (it still
  // asks for them with takeXactLocks, which then costs nothing). The consumer takes them within the
  // inbox insert that opens the transaction: one round trip fewer per event, and a batch takes all
  // its events' locks in one global order. The handler's first statement still runs after they are
  // granted, so it sees everything committed by whoever held them.
  on<K extends EventType>(type: K, handler: EventHandler<K>, options: EventHandlerOptions<K> = {}): void {
    if (this.handlers.has(type)) throw new Error(`a handler for ${type} is already registered`);
    this.handlers.set(type, handler as unknown as EventHandler<EventType>);
    if (options.locksFirst) this.locksOf.set(type, options.locksFirst as (event: AnyEnvelope) => XactLock[]);
    if (options.prepareRun) this.preparers.set(type, options.prepareRun as unknown as RunPreparer<EventType>);
    if (options.mayWaitMs) this.mayWait.set(type, options.mayWaitMs);
  }

  // Wakes the stages that act on what handlers write (the outbox relay, a worker) right after the
  // commit, instead of leaving the work to their next poll.
  onCommitted(listener: CommittedListener): void {
    this.committedListeners.push(listener);
  }

  // Runs `hook` once the transaction of `manager` (a handler's) has ended, told whether it committed:
  // e.g. to hand work the handler wrote to an in-process stage only once it exists for good, and to
  // give back what was set aside for it when it rolled back.
  afterTransaction(manager: EntityManager, hook: TransactionEndHook): void {
    const hooks = this.endHooks.get(manager);
    if (!hooks) throw new Error('afterTransaction: not the manager of a handler transaction');
    hooks.push(hook);
  }

  // Shutdown: a handler that is failing stops retrying (its event is not marked handled, so it is
  // delivered again after the restart) instead of holding the transport's disconnect, and with it
  // the whole shutdown, for as long as its retries last.
  stop(): void {
    this.stopping.abort();
  }

  hasHandlers(): boolean {
    return this.handlers.size > 0;
  }

  async start(): Promise<void> {
    if (!this.hasHandlers()) return;
    await this.transport.subscribe({
      groupId: this.opts.groupId,
      topics: [...this.handlers.keys()],
      handle: (record) => this.handle(record),
      handleBatch: (records) => this.handleBatch(records),
      mayWaitMs: (topic) => this.mayWait.get(topic) ?? 0,
    });
  }

  async handle(record: ConsumedRecord): Promise<void> {
    await this.handleOne(record, true);
  }

  // Records in log order within each partition (one or several). Returns once every one is handled
  // (or dead-lettered); throws only when stopping, or when dead-lettering itself failed.
  async handleBatch(records: readonly ConsumedRecord[]): Promise<void> {
    const parsed: ParsedRecord[] = [];
    let unreadable = false;
    for (const record of records) {
      let event: AnyEnvelope;
      try {
        event = parseEnvelope(record.value);
      } catch {
        unreadable = true;
        break;
      }
      const handler = this.handlers.get(event.type);
      if (handler) parsed.push({ record, event, handler });
    }
    // A single event, or one that cannot be read (dead-lettered there), takes the one-by-one path.
    if (unreadable || parsed.length < 2) {
      for (const record of records) await this.handleOne(record, true);
      return;
    }
    for (const p of parsed) this.observeLag(p.record, p.event);
    try {
      await this.withClassicRerun((marks) => this.applyBatch(parsed, marks));
      return;
    } catch (err) {
      if (this.stopping.signal.aborted) throw err;
      this.log.warn(
        `a batch of ${parsed.length} events on ${records[0]?.topic}@${records[0]?.partition} failed ` +
          `(${(err as Error).message}); handling them one by one`,
      );
    }
    for (const record of records) await this.handleOne(record, false, 'classic');
  }

  private async handleOne(
    record: ConsumedRecord,
    observeLag: boolean,
    firstMarks: InboxMarks = 'ahead',
  ): Promise<void> {
    let event: AnyEnvelope;
    try {
      event = parseEnvelope(record.value);
    } catch (err) {
      await this.deadLetter(record, err as Error, 1);
      return;
    }
    const handler = this.handlers.get(event.type);
    if (!handler) return;
    if (observeLag) this.observeLag(record, event);
    await this.inEventContext(record, event, () => this.handleParsed(record, event, handler, firstMarks));
  }

  private observeLag(record: ConsumedRecord, event: AnyEnvelope): void {
    const occurred = Date.parse(event.occurredAt);
    if (Number.isFinite(occurred)) {
      consumerLag.observe(
        { group: this.opts.groupId, topic: record.topic },
        Math.max(0, Date.now() - occurred) / 1000,
      );
    }
  }

  private inEventContext<T>(record: ConsumedRecord, event: AnyEnvelope, work: () => Promise<T>): Promise<T> {
    return withLogContext(logContextOf(event), () =>
      // A consumer span continuing the producer's trace (the event's traceparent header): the events
      // this handler writes carry the same trace.
      inSpanFrom(
        `${event.type} process`,
        SpanKind.CONSUMER,
        record.headers,
        { 'messaging.destination.name': record.topic, 'messaging.consumer.group.name': this.opts.groupId },
        work,
      ),
    );
  }

  private async handleParsed(
    record: ConsumedRecord,
    event: EventEnvelope<EventType, EventMap[EventType]>,
    handler: EventHandler<EventType>,
    firstMarks: InboxMarks,
  ): Promise<void> {
    const maxAttempts = this.opts.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        // a retry knows something failed: it checks the inbox before the handler, as a redelivery would
        if (attempt === 1 && firstMarks === 'ahead')
          await this.withClassicRerun((marks) => this.applyOnce(event, handler, marks));
        else await this.applyOnce(event, handler, 'classic');
        return;
      } catch (err) {
        if (this.stopping.signal.aborted) throw err;
        const exhausted = err instanceof InvalidEventError || attempt >= maxAttempts;
        // A database that cannot be reached fails every event alike: an outage to wait out, not a
        // poison event. Dead-lettering then would park good events (a payout, a completion) for
        // good, so only a failure the database does not explain goes to the dead-letter topic.
        if (exhausted && (err instanceof InvalidEventError || (await this.databaseReachable()))) {
          await this.deadLetter(record, err as Error, attempt);
          return;
        }
        const delay = Math.min((this.opts.retryBaseDelayMs ?? 200) * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
        const why = exhausted ? 'database unreachable, waiting' : `retry in ${delay} ms`;
        this.log.warn(
          `${event.type} ${event.id} attempt ${attempt} failed (${(err as Error).message}); ${why}`,
        );
        await abortableDelay(delay, this.stopping.signal);
      }
    }
  }

  private async databaseReachable(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  // `attempt` with the marks sent ahead (see markInbox); if it failed where the marks may be why (see
  // marksInDoubt), once more with the marks checked first, whose outcome (a redelivery skipped, or the
  // handler's own error) is the one that counts. A failure after the marks were written is the
  // handler's own and is judged as before; a redelivery costs one transaction more.
  private async withClassicRerun(attempt: (marks: InboxMarks) => Promise<void>): Promise<void> {
    try {
      await attempt('ahead');
    } catch (err) {
      if (this.stopping.signal.aborted || !marksInDoubt(err, this.opts.schema)) throw err;
      await attempt('classic');
    }
  }

  private async applyOnce(
    event: EventEnvelope<EventType, EventMap[EventType]>,
    handler: EventHandler<EventType>,
    marks: InboxMarks,
  ) {
    const before = this.opts.eventsPrepared?.();
    const handled = await this.transaction(async (manager) => {
      const inserted = await this.markInbox(manager, [event.id], [event.type], this.locksFor([event]), marks);
      if (inserted.length === 0) return false; // already handled: a redelivery
      await unsentMarksInDoubt(manager, marks, () => handler(event, manager));
      assertTransactionUsable(manager);
      return true;
    });
    if (handled) this.notifyCommitted(event.type, this.wroteSince(before));
  }

  // One transaction for the batch: the inbox marks of all its events in one statement (a
  // redelivered event's mark exists already and is not returned: that event is skipped), then each
  // new event's handler in log order, each in its own log context and span. Any failure rolls the
  // whole batch back (no mark, no write of any of its events survives) and is thrown to the caller.
  private async applyBatch(batch: readonly ParsedRecord[], marks: InboxMarks): Promise<void> {
    const ids = [...new Set(batch.map((p) => p.event.id))];
    const topics = ids.map((id) => batch.find((p) => p.event.id === id)?.event.type ?? '');
    const before = this.opts.eventsPrepared?.();
    const locks = this.locksFor(batch.map((p) => p.event));
    const handledTypes = await this.transaction(async (manager) => {
      const inserted = await this.markInbox(manager, ids, topics, locks, marks);
      const fresh = new Set(inserted.map((r) => r.event_id.toLowerCase()));
      // handled before, or a second copy within this batch: skipped
      const todo = batch.filter((p) => fresh.delete(p.event.id.toLowerCase()));
      const types: EventType[] = [];
      await unsentMarksInDoubt(manager, marks, async () => {
        for (let i = 0; i < todo.length; i++) {
          const { record, event, handler } = todo[i]!;
          if (todo[i - 1]?.event.type !== event.type) await this.prepareRun(todo, i, manager);
          await this.inEventContext(record, event, () => handler(event, manager));
          types.push(event.type);
        }
      });
      assertTransactionUsable(manager);
      return types;
    });
    const wrote = this.wroteSince(before);
    for (const type of new Set(handledTypes)) this.notifyCommitted(type, wrote);
  }

  // The run of events of one type starting at `from`, given to that type's preparer if it has one.
  private async prepareRun(todo: readonly ParsedRecord[], from: number, manager: EntityManager) {
    const type = todo[from]!.event.type;
    const prepare = this.preparers.get(type);
    if (!prepare) return;
    let to = from + 1;
    while (to < todo.length && todo[to]!.event.type === type) to++;
    if (to - from < 2) return;
    const records = todo.slice(from, to);
    // No event's span or log context around the whole: the run's events get theirs when their
    // handlers run, and the preparer asks for one event's where it needs it.
    await prepare(
      records.map((p) => p.event),
      manager,
      (i, work) => {
        const { record, event } = records[i]!;
        return withLogContext(logContextOf(event), () => inTraceOf(record.headers, work));
      },
    );
  }

  private locksFor(events: readonly AnyEnvelope[]): XactLock[] {
    return events.flatMap((event) => this.locksOf.get(event.type)?.(event) ?? []);
  }

  // The transaction's first statement: the inbox marks of the events (the ids returned are the new
  // ones), after the locks their handlers take first. Within one statement the marks are written
  // once the locks are all granted: the join waits for the one-row aggregate that takes them.
  //
  // 'ahead': the marks go out in front of the handlers' first statement, in its round trip (or with
  // the COMMIT), instead of in one of their own, and every event counts as new. A mark that exists
  // already (a redelivery) then fails that statement, nothing of the transaction is kept, and the
  // caller runs it again 'classic' (withClassicRerun). Redeliveries are rare (after a crash or a
  // rebalance), and a consumer transaction was three round trips (marks, the handler's statement,
  // COMMIT) where it is two now. The statements run in the same order on the server as before, each
  // with its own snapshot, so a handler's first statement still sees what the locks' holders committed.
  private async markInbox(
    manager: EntityManager,
    ids: readonly string[],
    topics: readonly string[],
    locks: readonly XactLock[],
    marks: InboxMarks,
  ): Promise<Array<{ event_id: string }>> {
    const insert = `INSERT INTO "${this.opts.schema}"."inbox" (consumer, event_id, topic)
      SELECT $1, e.id, e.topic FROM unnest($2::uuid[], $3::text[]) AS e(id, topic)`;
    const taking = locks.length > 0 ? xactLocksQuery(locks, 4) : undefined;
    const sql = taking ? `WITH locked AS (${taking.sql}) ${insert} CROSS JOIN locked` : insert;
    const params = [this.opts.groupId, ids, topics, ...(taking?.params ?? [])];
    let inserted: Array<{ event_id: string }>;
    if (marks === 'ahead') {
      await writeWithNextStatement(manager, sql, params);
      inserted = ids.map((id) => ({ event_id: id }));
    } else {
      inserted = await manager.query(`${sql} ON CONFLICT DO NOTHING RETURNING event_id`, params);
    }
    // taken before any statement the handlers send (sent ahead: on the server, before the statement
    // they travel with)
    if (locks.length > 0) noteXactLocksHeld(manager, locks);
    return inserted;
  }

  // A handler transaction: the hooks its handlers register (afterTransaction) run once it ended, and
  // the manager takes none after its work returned.
  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const hooks: TransactionEndHook[] = [];
    let result: T;
    try {
      result = await this.dataSource.transaction(async (manager) => {
        this.endHooks.set(manager, hooks);
        try {
          return await work(manager);
        } finally {
          this.endHooks.delete(manager);
        }
      });
    } catch (err) {
      this.runHooks(hooks, false);
      throw err;
    }
    this.runHooks(hooks, true);
    return result;
  }

  // Like the listeners, a hook's failure must not fail the events: their outcome is settled.
  private runHooks(hooks: readonly TransactionEndHook[], committed: boolean): void {
    for (const hook of hooks) {
      try {
        hook(committed);
      } catch (err) {
        this.log.warn(`after-transaction hook failed: ${(err as Error).message}`);
      }
    }
  }

  private wroteSince(before: number | undefined): boolean {
    return before === undefined || this.opts.eventsPrepared?.() !== before;
  }

  // A listener's failure must not fail the event: its transaction has committed already.
  private notifyCommitted(type: EventType, wroteEvents: boolean): void {
    for (const listener of this.committedListeners) {
      try {
        listener(type, wroteEvents);
      } catch (err) {
        this.log.warn(`after-commit listener for ${type} failed: ${(err as Error).message}`);
      }
    }
  }

  private async deadLetter(record: ConsumedRecord, err: Error, attempts: number): Promise<void> {
    deadLettered.inc({ group: this.opts.groupId, topic: record.topic });
    this.log.error(
      `dead-lettering ${record.topic}@${record.partition}:${record.offset} after ${attempts} attempt(s): ${err.message}`,
    );
    await this.transport.publish([
      {
        topic: deadLetterTopic(record.topic),
        key: record.key,
        value: record.value,
        headers: {
          ...record.headers,
          'dlq-error': err.message.slice(0, 2000),
          'dlq-consumer': this.opts.groupId,
          'dlq-attempts': String(attempts),
          'dlq-source': `${record.topic}@${record.partition}:${record.offset}`,
        },
      },
    ]);
  }
}

type AnyEnvelope = EventEnvelope<EventType, EventMap[EventType]>;

// How a transaction writes its events' inbox marks (markInbox): ahead of the handlers' first
// statement, taking every event for new, or in a statement of their own that returns the new ones.
type InboxMarks = 'ahead' | 'classic';

interface ParsedRecord {
  record: ConsumedRecord;
  event: AnyEnvelope;
  handler: EventHandler<EventType>;
}

// A handler failed before anything of its transaction reached the server, the marks sent ahead
// included: whether its events were handled before is not known.
class MarksNotSent extends Error {
  constructor(failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure));
  }
}

async function unsentMarksInDoubt(
  manager: EntityManager,
  marks: InboxMarks,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (marks === 'ahead' && nothingSentYet(manager.queryRunner)) throw new MarksNotSent(err);
    throw err;
  }
}

// Whether a transaction whose marks were sent ahead failed where the marks may be the cause: a mark
// that exists already (the statement it travelled with, or the COMMIT, failed on the inbox's key),
// a handler that swallowed that failure (its transaction aborted: the error of its next statement,
// or of assertTransactionUsable), or a handler that failed before the marks were sent.
function marksInDoubt(err: unknown, schema: string): boolean {
  if (err instanceof MarksNotSent || err instanceof AbortedTransactionError) return true;
  const e = err as { code?: string; table?: string; schema?: string; driverError?: unknown };
  const pg = (e.driverError ?? e) as { code?: string; table?: string; schema?: string };
  if (pg.code === PG_IN_FAILED_TRANSACTION) return true;
  return pg.code === PG_UNIQUE_VIOLATION && pg.table === 'inbox' && pg.schema === schema;
}

const PG_IN_FAILED_TRANSACTION = '25P02';

class AbortedTransactionError extends Error {}

// A handler that caught a database error and returned left its transaction aborted, and Postgres
// answers COMMIT of an aborted transaction with a rollback, not an error: the event (in a batch,
// every event of it) would count as handled with nothing written, not even its inbox mark. The
// connection knows (the transaction status of its last ReadyForQuery), so this costs no round trip.
function assertTransactionUsable(manager: EntityManager): void {
  const client = (manager.queryRunner as unknown as { databaseConnection?: PgTransactionStatus } | undefined)
    ?.databaseConnection;
  if (client?.getTransactionStatus?.() === 'E') {
    throw new AbortedTransactionError(
      'a handler swallowed a database error: its transaction is aborted and is rolled back',
    );
  }
}

interface PgTransactionStatus {
  getTransactionStatus?: () => string | null; // 'I' idle, 'T' in a transaction, 'E' in a failed one
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

// An event's log context: its id, and the order it is about when it names one.
function logContextOf(event: AnyEnvelope): { eventId: string; orderUuid?: string } {
  const data = event.data as { orderUuid?: unknown } | undefined;
  const orderUuid = typeof data?.orderUuid === 'string' ? data.orderUuid : undefined;
  return { eventId: event.id, ...(orderUuid ? { orderUuid } : {}) };
}
