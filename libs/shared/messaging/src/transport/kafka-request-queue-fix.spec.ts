import { fixKafkaRequestQueue, KafkaRequestQueue } from './kafka-request-queue-fix';

const logger = { debug: () => undefined, namespace: () => logger };

function queue() {
  return new KafkaRequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    clientId: 't',
    broker: 'b',
    logger,
  });
}

describe('kafkajs request queue fix', () => {
  beforeAll(() => expect(fixKafkaRequestQueue()).toBe(true));

  it('arms no timer when nothing is pending and nothing throttles (kafkajs 2.2.4 re-armed 1 ms for ever)', () => {
    const q = queue();
    q.checkPendingRequests(); // what every answer to a request calls
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still checks a queue with requests waiting, and one that is throttled', () => {
    jest.useFakeTimers();
    try {
      const q = queue();
      const check = jest.spyOn(q, 'checkPendingRequests').mockImplementation(() => undefined);
      q.pending.push({});
      q.scheduleCheckPendingRequests();
      expect(q.throttleCheckTimeoutId).not.toBeNull();
      jest.advanceTimersByTime(10);
      expect(check).toHaveBeenCalledTimes(1);

      q.pending.length = 0;
      q.throttledUntil = Date.now() + 500;
      q.scheduleCheckPendingRequests();
      jest.advanceTimersByTime(499);
      expect(check).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(1);
      expect(check).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
