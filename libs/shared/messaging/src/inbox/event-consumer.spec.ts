import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { Topics } from '@onramp/contracts';

import { OutboxWriter } from '../outbox/outbox-writer';
import { EventTransport } from '../transport/event-transport';
import { EventConsumer } from './event-consumer';

function transferFailed() {
  const orderUuid = randomUUID();
  const envelope = {
    id: randomUUID(),
    type: Topics.TransferFailed,
    version: 1,
    occurredAt: new Date().toISOString(),
    merchantId: randomUUID(),
    data: { orderUuid, transactionHash: '', payedAmount: '1', reason: 'reverted' },
  };
  return {
    topic: Topics.TransferFailed,
    partition: 0,
    offset: '0',
    key: orderUuid,
    value: JSON.stringify(envelope),
    headers: {},
  };
}

// A database that refuses everything: the consumer retries (an outage is waited out, never
// dead-lettered) until it is stopped, and then gives the event back at once, unhandled, so the
// transport's disconnect (and the service's shutdown) does not wait on it.
describe('EventConsumer.stop', () => {
  it('ends the retries of a failing event promptly, without marking it handled', async () => {
    const down = async (): Promise<never> => {
      throw new Error('connection refused');
    };
    const dataSource = { transaction: down, query: down } as unknown as DataSource;
    const consumer = new EventConsumer(dataSource, {} as EventTransport, {
      schema: 'test',
      groupId: 'test',
      retryBaseDelayMs: 5000, // a retry that was not cut would come seconds later
    });
    consumer.on(Topics.TransferFailed, async () => undefined);
    const handling = consumer.handle(transferFailed());
    const outcome = handling.then(
      () => 'handled',
      (err: Error) => err.message,
    );
    await new Promise((r) => setTimeout(r, 50)); // first attempt failed, waiting to retry
    const stoppedAt = Date.now();
    consumer.stop();
    await expect(outcome).resolves.toBe('connection refused');
    expect(Date.now() - stoppedAt).toBeLessThan(2000);
  });
});

// Whether a committed handler wrote an event is what decides if the outbox relay is woken: the
// writer's count of prepared events before and after the transaction (messaging.int-spec.ts runs the
// wake-up on real Postgres).
describe('EventConsumer committed listeners', () => {
  it('say whether the handler prepared an event', async () => {
    const manager = { query: async () => [{ event_id: 'new' }] };
    const dataSource = {
      transaction: async (work: (m: unknown) => Promise<unknown>) => work(manager),
    } as unknown as DataSource;
    const writer = new OutboxWriter('test');
    const consumer = new EventConsumer(dataSource, {} as EventTransport, {
      schema: 'test',
      groupId: 'test',
      eventsPrepared: () => writer.prepared,
    });
    let writes = false;
    consumer.on(Topics.TransferFailed, async (event) => {
      if (writes)
        writer.prepare({
          type: Topics.TransferFailed,
          key: event.data.orderUuid,
          merchantId: event.merchantId,
          data: event.data,
        });
    });
    const told: boolean[] = [];
    consumer.onCommitted((_type, wroteEvents) => told.push(wroteEvents));

    await consumer.handle(transferFailed());
    writes = true;
    await consumer.handle(transferFailed());
    expect(told).toEqual([false, true]);
  });
});

describe('EventConsumer.afterTransaction', () => {
  it("tells a handler's hooks, once its transaction ended, whether it committed", async () => {
    let commit = true;
    const manager = { query: async () => [{ event_id: 'new' }] };
    const dataSource = {
      transaction: async (work: (m: unknown) => Promise<unknown>) => {
        const result = await work(manager);
        if (!commit) throw new Error('could not serialize access');
        return result;
      },
      query: async () => [],
    } as unknown as DataSource;
    const consumer = new EventConsumer(dataSource, {} as EventTransport, {
      schema: 'test',
      groupId: 'test',
      retryBaseDelayMs: 1000,
    });
    const ran: string[] = [];
    consumer.on(Topics.TransferFailed, async (event, m) => {
      ran.push(`handled ${commit}`);
      consumer.afterTransaction(m, (committed) => ran.push(`hook ${committed}`));
    });
    await consumer.handle(transferFailed());
    expect(ran).toEqual(['handled true', 'hook true']);

    commit = false;
    const failing = consumer.handle(transferFailed()).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50)); // the first attempt rolled back, a retry waits
    consumer.stop();
    await failing;
    // tried (and maybe retried) but never committed: each attempt's hook is told so
    const attempts = ran.filter((r) => r === 'handled false').length;
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(ran.filter((r) => r.startsWith('hook'))).toEqual([
      'hook true',
      ...Array(attempts).fill('hook false'),
    ]);
    expect(() => consumer.afterTransaction(manager as never, () => undefined)).toThrow('not the manager');
  });
});
