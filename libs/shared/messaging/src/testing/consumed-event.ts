import { randomUUID } from 'node:crypto';

import { uuidv7 } from '../ids';
import { ConsumedRecord } from '../transport/event-transport';

// For the consumer specs: an event envelope of `topic` as a transport hands it over, on partition 0
// at `offset`, with a fresh id unless one is given (the same id again is a redelivery).
export function consumedEvent(topic: string, data: object, offset: number, id = uuidv7()): ConsumedRecord {
  return {
    topic,
    key: 'k',
    partition: 0,
    offset: String(offset),
    headers: {},
    value: JSON.stringify({
      id,
      type: topic,
      version: 1,
      occurredAt: new Date().toISOString(),
      merchantId: randomUUID(),
      data,
    }),
  };
}
