import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { metrics } from '@onramp/observability';
import { AttemptOutcome, classifyResponse, nextRetry } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { lockMerchant } from '../persistence/merchant-lock';
import { queryRows } from '../persistence/query-rows';
import { ClaimedDelivery } from './delivery-claimer';
import { SendResult } from './webhook-sender';

export const GONE_REASON = 'the endpoint answered 410 Gone';

interface LockedDelivery {
  status: string;
  attempts: number;
}

const attempts = metrics.counter(
  'webhook_delivery_attempts_total',
  'Webhook delivery attempts by outcome: delivered (2xx), gone (410), failed (anything else or no answer).',
);
const attemptDuration = metrics.histogram(
  'webhook_delivery_attempt_duration_seconds',
  'Time of one webhook delivery attempt, by outcome.',
);

// Records an attempt and moves the delivery on: DELIVERED, DISABLED (410: the endpoint and all its
// waiting deliveries), a retry per the schedule, or DEAD once the retry window has passed.
// A result whose claim is stale (the lease ran out and the delivery was claimed again, or a manual
// redelivery restarted it) is kept in the attempt log but does not move the delivery.
@Injectable()
export class AttemptRecorder {
  random: () => number = Math.random;
  clock: () => Date = () => new Date();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookDispatchConfig,
  ) {}

  async record(claim: ClaimedDelivery, result: SendResult): Promise<void> {
    const outcome: AttemptOutcome =
      result.statusCode === null ? 'failed' : classifyResponse(result.statusCode);
    attempts.inc({ outcome });
    attemptDuration.observe({ outcome }, result.durationMs / 1000);
    await this.dataSource.transaction(async (manager) => {
      // Merchant lock before row locks, as everywhere else.
      if (outcome === 'gone') await lockMerchant(manager, claim.merchantId, 'exclusive');
      await manager.query(
        `INSERT INTO "webhooks"."delivery_attempts" (delivery_id, attempt_no, status_code, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [claim.id, claim.attemptNo, result.statusCode, result.error, result.durationMs],
      );
      const [row] = await queryRows<LockedDelivery>(
        manager,
        `SELECT status, attempts FROM "webhooks"."deliveries" WHERE id = $1 FOR UPDATE`,
        [claim.id],
      );
      if (!row || row.attempts !== claim.attemptNo) return;
      await this.setLast(manager, claim.id, result);

      if (outcome === 'delivered') {
        // Also when a concurrent 410 marked it DISABLED meanwhile: the receiver did take it.
        await manager.query(
          `UPDATE "webhooks"."deliveries" SET status = 'DELIVERED', delivered_at = now(), next_attempt_at = NULL WHERE id = $1`,
          [claim.id],
        );
        return;
      }
      if (row.status !== 'PENDING') return;
      if (outcome === 'gone' && (await this.disableEndpoint(manager, claim))) return;
      await this.scheduleRetry(manager, claim, result);
    });
  }

  private async setLast(manager: EntityManager, id: string, result: SendResult): Promise<void> {
    await manager.query(
      `UPDATE "webhooks"."deliveries" SET last_status_code = $2, last_error = $3 WHERE id = $1`,
      [id, result.statusCode, result.error],
    );
  }

  // Only if the 410 came from the URL still registered: a 410 from a URL the merchant has just
  // replaced must not disable the new one.
  private async disableEndpoint(manager: EntityManager, claim: ClaimedDelivery): Promise<boolean> {
    const disabled = await queryRows<{ merchant_id: string }>(
      manager,
      `UPDATE "webhooks"."endpoints" SET disabled_at = now(), disabled_reason = $3, updated_at = now()
       WHERE merchant_id = $1 AND url = $2 AND disabled_at IS NULL RETURNING merchant_id`,
      [claim.merchantId, claim.url, GONE_REASON],
    );
    if (disabled.length === 0) return false;
    await manager.query(
      `UPDATE "webhooks"."deliveries" SET status = 'DISABLED', next_attempt_at = NULL
       WHERE merchant_id = $1 AND status = 'PENDING'`,
      [claim.merchantId],
    );
    return true;
  }

  private async scheduleRetry(
    manager: EntityManager,
    claim: ClaimedDelivery,
    result: SendResult,
  ): Promise<void> {
    const decision = nextRetry(
      {
        attempt: claim.attemptNo,
        windowStartedAt: claim.retryFrom,
        now: this.clock(),
        retryAfter: result.retryAfter,
      },
      this.config.retryPolicy,
      this.random,
    );
    if (decision.kind === 'dead') {
      await manager.query(
        `UPDATE "webhooks"."deliveries" SET status = 'DEAD', next_attempt_at = NULL WHERE id = $1`,
        [claim.id],
      );
      return;
    }
    await manager.query(
      `UPDATE "webhooks"."deliveries" SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
       WHERE id = $1`,
      [claim.id, decision.delayMs],
    );
  }
}
