import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { metrics } from '@onramp/observability';
import { AttemptOutcome, classifyResponse, nextRetry } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { ClaimedDelivery, WebhookDeliveriesRepository } from '../deliveries/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { lockMerchant } from '../persistence/merchant-lock.repository';
import { SendResult } from './webhook-sender';

export const GONE_REASON = 'the endpoint answered 410 Gone';

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
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
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
      await this.deliveries.logAttempt(manager, claim.id, claim.attemptNo, result);
      const row = await this.deliveries.lockForResult(manager, claim.id);
      if (!row || row.attempts !== claim.attemptNo) return;
      await this.deliveries.setLastResult(manager, claim.id, result);

      if (outcome === 'delivered') {
        // Also when a concurrent 410 marked it DISABLED meanwhile: the receiver did take it.
        await this.deliveries.markDelivered(manager, claim.id);
        return;
      }
      if (row.status !== 'PENDING') return;
      if (outcome === 'gone' && (await this.disableEndpoint(manager, claim))) return;
      await this.scheduleRetry(manager, claim, result);
    });
  }

  // Only if the 410 came from the URL still registered: a 410 from a URL the merchant has just
  // replaced must not disable the new one.
  private async disableEndpoint(manager: EntityManager, claim: ClaimedDelivery): Promise<boolean> {
    if (!(await this.endpoints.disableIfStill(manager, claim.merchantId, claim.url, GONE_REASON)))
      return false;
    await this.deliveries.disablePending(manager, claim.merchantId);
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
      await this.deliveries.markDead(manager, claim.id);
      return;
    }
    await this.deliveries.retryIn(manager, claim.id, decision.delayMs);
  }
}
