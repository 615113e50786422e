import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { queryRows } from '../persistence/query-rows';

export interface ClaimedDelivery {
  id: string;
  eventId: string;
  merchantId: string;
  body: string;
  attemptNo: number; // also the fencing token of this claim
  retryFrom: Date;
  url: string;
  secretEnc: string;
}

export interface ClaimRequest {
  limit: number; // free slots of this process
  perMerchant: number; // at most this many in flight per merchant
  inFlight: { merchantIds: string[]; counts: number[] }; // what this process already sends
  leaseMs: number;
}

interface ClaimRow {
  id: string;
  event_id: string;
  merchant_id: string;
  body: string;
  attempts: number;
  retry_from: Date;
  url: string;
  secret_enc: string;
}

// Claims due deliveries in one committed statement: rows are locked with SKIP LOCKED (other workers
// take others), each merchant gets only its free slots (oldest first), and next_attempt_at is pushed
// forward as a lease. If this process dies mid-send, the lease runs out and any worker sends again:
// at-least-once. The attempt counter is bumped here so each claim has its own attempt number.
@Injectable()
export class DeliveryClaimer {
  constructor(private readonly dataSource: DataSource) {}

  async claim(req: ClaimRequest): Promise<ClaimedDelivery[]> {
    const rows = await queryRows<ClaimRow>(
      this.dataSource,
      `WITH used (merchant_id, n) AS (SELECT * FROM unnest($3::uuid[], $4::int[])),
       ranked AS (
         SELECT d.id,
                row_number() OVER (PARTITION BY d.merchant_id ORDER BY d.next_attempt_at, d.id) + COALESCE(u.n, 0) AS slot
         FROM "webhooks"."deliveries" d
         JOIN "webhooks"."endpoints" e ON e.merchant_id = d.merchant_id AND e.disabled_at IS NULL
         LEFT JOIN used u ON u.merchant_id = d.merchant_id
         WHERE d.status = 'PENDING' AND d.next_attempt_at <= now()
       ),
       picked AS (
         SELECT d.id FROM "webhooks"."deliveries" d JOIN ranked r ON r.id = d.id
         WHERE r.slot <= $2 AND d.status = 'PENDING' AND d.next_attempt_at <= now()
         ORDER BY d.next_attempt_at, d.id
         LIMIT $1
         FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE "webhooks"."deliveries" d
       SET next_attempt_at = now() + make_interval(secs => $5::double precision / 1000), attempts = d.attempts + 1
       FROM picked p, "webhooks"."endpoints" e
       WHERE d.id = p.id AND e.merchant_id = d.merchant_id
       RETURNING d.id, d.event_id, d.merchant_id, d.body, d.attempts, d.retry_from, e.url, e.secret_enc`,
      [req.limit, req.perMerchant, req.inFlight.merchantIds, req.inFlight.counts, req.leaseMs],
    );
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      merchantId: r.merchant_id,
      body: r.body,
      attemptNo: r.attempts,
      retryFrom: r.retry_from,
      url: r.url,
      secretEnc: r.secret_enc,
    }));
  }
}
