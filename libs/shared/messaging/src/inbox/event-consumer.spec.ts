import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { Topics } from '@onramp/contracts';

import { EventTransport } from '../transport/event-transport';
import { EventConsumer } from './event-consumer';

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
      retryBaseDelayMs: 1000,
    });
    consumer.on(Topics.TransferFailed, async () => undefined);
    const orderUuid = randomUUID();
    const envelope = {
      id: randomUUID(),
      type: Topics.TransferFailed,
      version: 1,
      occurredAt: new Date().toISOString(),
      merchantId: randomUUID(),
      data: { orderUuid, transactionHash: '', payedAmount: '1', reason: 'reverted' },
    };
    const handling = consumer.handle({
      topic: Topics.TransferFailed,
      partition: 0,
      offset: '0',
      key: orderUuid,
      value: JSON.stringify(envelope),
      headers: {},
    });
    const outcome = handling.then(
      () => 'handled',
      (err: Error) => err.message,
    );
    await new Promise((r) => setTimeout(r, 50)); // first attempt failed, waiting to retry
    const stoppedAt = Date.now();
    consumer.stop();
    await expect(outcome).resolves.toBe('connection refused');
    expect(Date.now() - stoppedAt).toBeLessThan(500);
  });
});
