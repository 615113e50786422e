import { EventEnvelope, EventHeaders } from '@onramp/contracts';
import { waitFor } from '@onramp/platform-infra';

import { loadTestEnv } from '../test-env';
import { RecordedEvent } from './topic-recorder';
import { readTopics } from './read-topics';

// What a service has published so far: waits until its outbox is empty (the relay deletes the rows
// it published, so nothing written before this call is still on its way), then reads the topics up
// to their ends. The broker is shared: filter by your own ids. `query` runs SQL on the service's
// database (a DataSource's or a pg client's query).
export async function publishedEvents(
  query: (sql: string) => Promise<unknown>,
  schema: string,
  topics: string[],
): Promise<RecordedEvent[]> {
  await waitFor(
    async () => {
      const result = (await query(`SELECT count(*)::int AS n FROM "${schema}"."outbox"`)) as
        Array<{ n: number }> | { rows: Array<{ n: number }> };
      const rows = Array.isArray(result) ? result : result.rows;
      return rows[0]?.n === 0;
    },
    { timeoutMs: 30_000, intervalMs: 50, description: `${schema}.outbox drained by its relay` },
  );
  return (await readTopics(loadTestEnv().kafkaBrokers, topics)).map((r) => ({
    topic: r.topic,
    key: r.key,
    headers: r.headers,
    envelope: JSON.parse(r.value) as EventEnvelope,
  }));
}

// The events that name one of `ids` (their key, merchant, or the data's orderUuid or userUuid), each
// once by event id (a relay that died between publishing and deleting sends an event again).
export function eventsAbout(events: RecordedEvent[], ids: string[]): RecordedEvent[] {
  const wanted = new Set(ids);
  const seen = new Set<string>();
  return events.filter((e) => {
    const data = e.envelope.data as { orderUuid?: string; userUuid?: string } | null;
    const about =
      wanted.has(e.key) ||
      wanted.has(e.envelope.merchantId) ||
      wanted.has(data?.orderUuid ?? '') ||
      wanted.has(data?.userUuid ?? '');
    const id = e.headers[EventHeaders.Id] ?? e.envelope.id;
    if (!about || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
