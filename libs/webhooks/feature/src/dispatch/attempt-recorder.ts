import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { metrics } from '@onramp/observability';
import { AttemptOutcome, classifyResponse, nextRetry, RetryDecision } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import {
  ClaimedDelivery,
  FinishedAttempt,
  WebhookDeliveriesRepository,
} from '../deliveries/webhook-deliveries.repository';
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

export interface Finished {
  claim: ClaimedDelivery;
  result: SendResult;
}

// Records an attempt and moves the delivery on: DELIVERED, DISABLED (410: the endpoint and all its
// waiting deliveries), a retry per the schedule, or DEAD once the retry window has passed.
// A result whose claim is stale (the lease ran out and the delivery was claimed again, or a manual
// redelivery restarted it) is kept in the attempt log but does not move the delivery.
@Injectable()
export class AttemptRecorder {
  private readonly log = new Logger(AttemptRecorder.name);
  random: () => number = Math.random;
  clock: () => Date = () => new Date();

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookDispatchConfig,
  ) {}

  // Everything the dispatcher finished since its last round, in one statement: deliveries and
  // failures (the common case) are decided here and written together; a 410, which may disable the
  // endpoint under the merchant lock, is recorded on its own. If the batch fails (a value Postgres
  // refuses, a deadlock with an endpoint change), each result is tried alone, so one bad result
  // cannot keep the others unrecorded. What still fails is sent again after its lease (at-least-once).
  async recordAll(finished: Finished[]): Promise<void> {
    const batched: Finished[] = [];
    const batch: FinishedAttempt[] = [];
    const alone: Finished[] = [];
    for (const f of finished) {
      const outcome = this.observe(f.result);
      if (outcome === 'gone') {
        alone.push(f);
      } else {
        batched.push(f);
        batch.push(this.decide(f, outcome));
      }
    }
    try {
      await this.deliveries.recordFinished(this.dataSource.manager, batch);
    } catch (err) {
      this.log.warn(
        `recording ${batch.length} webhook attempt(s) in one statement failed, one by one: ${(err as Error).message}`,
      );
      alone.push(...batched);
    }
    for (const f of alone) {
      await this.recordOne(f.claim, f.result).catch((err: unknown) =>
        // The lease runs out and the delivery is tried again.
        this.log.error(
          `webhook delivery ${f.claim.id} attempt ${f.claim.attemptNo} not recorded: ${(err as Error).message}`,
        ),
      );
    }
  }

  private observe(result: SendResult): AttemptOutcome {
    const outcome: AttemptOutcome =
      result.statusCode === null ? 'failed' : classifyResponse(result.statusCode);
    attempts.inc({ outcome });
    attemptDuration.observe({ outcome }, result.durationMs / 1000);
    return outcome;
  }

  // What a delivered or failed attempt does to its delivery, if its claim is still current.
  private decide({ claim, result }: Finished, outcome: 'delivered' | 'failed'): FinishedAttempt {
    const base = {
      id: claim.id,
      attemptNo: claim.attemptNo,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
    };
    if (outcome === 'delivered') return { ...base, next: { kind: 'delivered' } };
    const decision = this.retryDecision(claim, result);
    return {
      ...base,
      next: decision.kind === 'dead' ? { kind: 'dead' } : { kind: 'retry', delayMs: decision.delayMs },
    };
  }

  private async recordOne(claim: ClaimedDelivery, result: SendResult): Promise<void> {
    const outcome: AttemptOutcome =
      result.statusCode === null ? 'failed' : classifyResponse(result.statusCode);
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
    const decision = this.retryDecision(claim, result);
    if (decision.kind === 'dead') {
      await this.deliveries.markDead(manager, claim.id);
      return;
    }
    await this.deliveries.retryIn(manager, claim.id, decision.delayMs);
  }

  private retryDecision(claim: ClaimedDelivery, result: SendResult): RetryDecision {
    return nextRetry(
      {
        attempt: claim.attemptNo,
        windowStartedAt: claim.retryFrom,
        now: this.clock(),
        retryAfter: result.retryAfter,
      },
      this.config.retryPolicy,
      this.random,
    );
  }
}
