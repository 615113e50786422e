import {
  DeadLetter,
  dlqTopicFor,
  matchesFilter,
  replayGroupId,
  replayHeaders,
  sourceTopicOf,
} from './dead-letter-record';

const record = (over: Partial<DeadLetter> = {}): DeadLetter => ({
  dlqTopic: 'payment.confirmed.dlq',
  partition: 3,
  offset: '17',
  timestamp: new Date('2026-01-10T12:00:00Z'),
  key: 'order-1',
  value: '{}',
  headers: {
    'event-id': 'e1',
    'event-type': 'payment.confirmed',
    traceparent: '00-abc-def-01',
    'dlq-error': 'boom',
    'dlq-consumer': 'onramp-chain-settlement',
    'dlq-attempts': '5',
    'dlq-source': 'payment.confirmed@3:9',
  },
  ...over,
});

describe('dead-letter records', () => {
  it('maps a dead-letter topic to its source topic and back', () => {
    expect(sourceTopicOf('order.completed.dlq')).toBe('order.completed');
    expect(() => sourceTopicOf('order.completed')).toThrow('not a dead-letter topic');
    expect(dlqTopicFor('order.completed')).toBe('order.completed.dlq');
    expect(dlqTopicFor('order.completed.dlq')).toBe('order.completed.dlq');
  });

  it('drops every dlq-* header, keeps the event headers and says where the replay came from', () => {
    expect(replayHeaders(record())).toEqual({
      'event-id': 'e1',
      'event-type': 'payment.confirmed',
      traceparent: '00-abc-def-01',
      'replayed-from': 'payment.confirmed.dlq@3:17',
    });
  });

  it('filters by the consumer that gave up and by the time it was dead-lettered', () => {
    expect(matchesFilter(record(), {})).toBe(true);
    expect(matchesFilter(record(), { consumer: 'onramp-chain-settlement' })).toBe(true);
    expect(matchesFilter(record(), { consumer: 'onramp-orders' })).toBe(false);
    expect(matchesFilter(record(), { since: new Date('2026-01-10T12:00:00Z') })).toBe(true);
    expect(matchesFilter(record(), { since: new Date('2026-01-10T12:00:01Z') })).toBe(false);
  });

  it('gives a consumer-filtered replay its own group', () => {
    expect(replayGroupId('onramp-dlq-replay', {})).toBe('onramp-dlq-replay');
    expect(replayGroupId('onramp-dlq-replay', { consumer: 'onramp-orders' })).toBe(
      'onramp-dlq-replay.onramp-orders',
    );
  });
});
