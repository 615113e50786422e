import type { DataSource } from 'typeorm';

import { EventTransport, TransportRecord } from '../transport/event-transport';
import { OutboxRelay } from './outbox-relay';

// The Kafka relay's round against a scripted connection: what it asks Postgres and the broker, in
// which order. messaging.int-spec.ts runs the same round on real Postgres and Kafka.
const batch = (from: number, n: number): TransportRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    topic: 't',
    key: `k${from + i}`,
    value: String(from + i),
    headers: {},
  }));

function scripted(batches: TransportRecord[][], log: string[]) {
  let read = 0;
  const client = {
    escapeIdentifier: (s: string) => `"${s}"`,
    escapeLiteral: (s: string) => `'${s}'`,
    query: async (sql: string) => {
      const text = sql.trim();
      if (text.startsWith('BEGIN')) {
        log.push(`take ${++read} (BEGIN, lock)`);
        return [{}, { rows: batches.shift() ?? [] }];
      }
      if (text.startsWith('WITH taken')) {
        log.push(`take ${++read}`);
        return { rows: batches.shift() ?? [] };
      }
      log.push(text);
      return { rows: [] };
    },
  };
  const dataSource = {
    createQueryRunner: () => ({ connect: async () => client, release: async () => undefined }),
    query: async () => {
      log.push('look');
      return [{ waiting: batches.length > 0 }];
    },
  } as unknown as DataSource;
  return dataSource;
}

function transport(log: string[], fail?: number): EventTransport {
  let call = 0;
  let inFlight = false;
  return {
    connect: async () => undefined,
    subscribe: async () => undefined,
    isConsuming: () => true,
    disconnect: async () => undefined,
    publish: async (records) => {
      const n = ++call;
      if (inFlight) throw new Error('two sends at once');
      inFlight = true;
      log.push(`send ${n} (${records[0].value}..${records[records.length - 1].value})`);
      await new Promise((r) => setTimeout(r, 5)); // the broker's answer comes later
      inFlight = false;
      if (n === fail) {
        log.push(`send ${n} failed`);
        throw new Error('broker down');
      }
      log.push(`ack ${n}`);
    },
  };
}

// A relay of batches of 4 over the scripted connection and transport, both writing to `log`; the
// `failAt`-th send fails.
function relayOver(batches: TransportRecord[][], log: string[], batchesPerRound?: number, failAt?: number) {
  return new OutboxRelay(scripted(batches, log), transport(log, failAt), {
    schema: 's',
    batchSize: 4,
    batchesPerRound,
  });
}

describe('OutboxRelay (Kafka round)', () => {
  it('takes the next batch while the broker has the last, sends it once that one is acknowledged, and commits once', async () => {
    const log: string[] = [];
    const relay = relayOver([batch(0, 4), batch(4, 4), batch(8, 2)], log, 4);
    expect(await relay.drainOnce(true)).toBe(10);
    expect(log).toEqual([
      'take 1 (BEGIN, lock)',
      'take 2', // issued before send 1, so it runs while the broker has batch 1
      'send 1 (0..3)',
      'ack 1',
      'take 3',
      'send 2 (4..7)',
      'ack 2',
      'send 3 (8..9)', // partial: the outbox was empty, nothing more to take
      'ack 3',
      'COMMIT',
    ]);
  });

  it('stops at batchesPerRound, and takes nothing ahead when a batch was not full', async () => {
    const log: string[] = [];
    const relay = relayOver([batch(0, 4), batch(4, 4), batch(8, 4)], log, 2);
    expect(await relay.drainOnce(true)).toBe(8);
    expect(log).toEqual([
      'take 1 (BEGIN, lock)',
      'take 2',
      'send 1 (0..3)',
      'ack 1',
      'send 2 (4..7)',
      'ack 2',
      'COMMIT',
    ]);

    const single: string[] = [];
    const one = relayOver([batch(0, 3)], single);
    expect(await one.drainOnce(true)).toBe(3);
    expect(single).toEqual(['take 1 (BEGIN, lock)', 'send 1 (0..2)', 'ack 1', 'COMMIT']);
  });

  it('rolls the whole round back when a later send fails: nothing of it is deleted, nothing after it is sent', async () => {
    const log: string[] = [];
    const relay = relayOver([batch(0, 4), batch(4, 4), batch(8, 4)], log, 4, 2);
    await expect(relay.drainOnce(true)).rejects.toThrow('broker down');
    expect(log).toEqual([
      'take 1 (BEGIN, lock)',
      'take 2',
      'send 1 (0..3)',
      'ack 1',
      'take 3',
      'send 2 (4..7)',
      'send 2 failed',
      'ROLLBACK', // after the pending take: batch 1 goes out again next round, before batch 2
    ]);
  });

  // The loop's first round, then stopped (a round that finds nothing ends with the look).
  async function firstRound(relay: OutboxRelay, log: string[]): Promise<void> {
    relay.start();
    for (let i = 0; i < 100 && !log.includes('COMMIT') && !log.includes('look'); i++)
      await new Promise((r) => setTimeout(r, 5));
    await relay.stop();
  }

  it('looks before taking after a wake-up, and takes at once after a writer of its process prepared an event', async () => {
    const looked: string[] = [];
    await firstRound(relayOver([batch(1, 2)], looked), looked);
    expect(looked.slice(0, 2)).toEqual(['look', 'take 1 (BEGIN, lock)']);

    const told: string[] = [];
    let prepared = 0;
    const relay = new OutboxRelay(scripted([batch(1, 2)], told), transport(told), {
      schema: 's',
      batchSize: 4,
      eventsPrepared: () => prepared,
    });
    prepared++; // a writer prepared an event before the relay's first round
    await firstRound(relay, told);
    expect(told.slice(0, 4)).toEqual(['take 1 (BEGIN, lock)', 'send 1 (1..2)', 'ack 1', 'COMMIT']);
  });

  it('nudgeWithin: one round for every nudge in its window, at its end; a nudge() meanwhile goes at once', async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const batches: TransportRecord[][] = [];
    const log: string[] = [];
    // polls far apart: only nudges bring a round
    const relay = new OutboxRelay(scripted(batches, log), transport(log), {
      schema: 's',
      batchSize: 4,
      idleDelayMs: 60_000,
      safetyNetMs: 60_000,
    });
    relay.start();
    for (let i = 0; i < 100 && !log.includes('look'); i++) await sleep(5);
    log.length = 0; // the first round's look at start

    batches.push(batch(0, 3));
    relay.nudgeWithin(600);
    relay.nudgeWithin(600);
    await sleep(30);
    relay.nudgeWithin(600); // inside the first one's window: no round of its own
    expect(log).toEqual([]);
    for (let i = 0; i < 300 && !log.includes('COMMIT'); i++) await sleep(5);
    expect(log).toEqual(['look', 'take 1 (BEGIN, lock)', 'send 1 (0..2)', 'ack 1', 'COMMIT']);

    log.length = 0;
    batches.push(batch(3, 1));
    relay.nudgeWithin(400);
    const nudgedAt = Date.now();
    relay.nudge(); // someone waits on this one
    for (let i = 0; i < 100 && !log.includes('COMMIT'); i++) await sleep(2);
    expect(Date.now() - nudgedAt).toBeLessThan(400);
    expect(log).toEqual(['look', 'take 2 (BEGIN, lock)', 'send 2 (3..3)', 'ack 2', 'COMMIT']);
    await sleep(450); // the window's end brings no second round
    expect(log).toHaveLength(5);
    await relay.stop();
  });

  it('refuses a bad batches-per-round', () => {
    expect(
      () => new OutboxRelay(scripted([], []), transport([]), { schema: 's', batchesPerRound: 0 }),
    ).toThrow('bad batches per round');
  });
});
