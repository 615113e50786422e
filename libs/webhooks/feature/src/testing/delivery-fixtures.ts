import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

// For the specs of the dispatcher's statements: merchants with an endpoint, and deliveries queued for
// them straight in the table, as the statements under test find them. `db` is read at each call (a
// spec opens its DataSource in beforeAll).
export function deliveryFixtures(db: () => DataSource) {
  // A merchant with an endpoint (disabled if asked).
  const merchant = async (disabled = false): Promise<string> => {
    const id = randomUUID();
    await db().query(
      `INSERT INTO webhooks.endpoints (merchant_id, url, secret_enc, disabled_at)
       VALUES ($1, 'http://127.0.0.1:1/hooks', 'sealed', CASE WHEN $2 THEN now() END)`,
      [id, disabled],
    );
    return id;
  };
  // `count` PENDING deliveries due `dueInS` from now (a millisecond apart), oldest first.
  const queue = async (merchantId: string, count: number, dueInS = -1): Promise<string[]> => {
    const rows = await db().query<{ id: string }[]>(
      `INSERT INTO webhooks.deliveries (id, event_id, merchant_id, event_type, order_uuid, body, status, next_attempt_at)
       SELECT gen_random_uuid(), gen_random_uuid(), $1, 'order.completed', gen_random_uuid(), '{}', 'PENDING',
              now() + make_interval(secs => $3 + i * 0.001)
       FROM generate_series(1, $2) AS i RETURNING id`,
      [merchantId, count, dueInS],
    );
    return rows.map((r) => r.id);
  };
  return { merchant, queue };
}

// A new delivery as an order event's handler passes it to insertOnce (claimed for that long if asked).
export function freshDelivery(merchantId: string, claimForMs?: number) {
  return {
    id: randomUUID(),
    eventId: randomUUID(),
    merchantId,
    eventType: 'order.completed',
    orderUuid: randomUUID(),
    body: '{}',
    claimForMs,
  };
}
