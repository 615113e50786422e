import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';

import { DataSource } from 'typeorm';

import { EventConsumer, WakeOrPoll } from '@onramp/messaging';
import { webhookHeaders } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { ClaimedDelivery, WebhookDeliveriesRepository } from '../deliveries/webhook-deliveries.repository';
import { PayerDataCipher } from '../deliveries/payer-data.cipher';
import { WebhookSecretCipher } from '../endpoints/webhook-secret.cipher';
import { AttemptRecorder, Finished } from './attempt-recorder';
import { InFlightTracker } from './in-flight-tracker';
import { SendResult, WebhookSender } from './webhook-sender';

// The dispatcher loop: claims due deliveries whenever this process has free slots, sends each one
// concurrently (never more than maxInFlightPerMerchant for one merchant, so a hanging endpoint holds
// only its own slots), and records the outcomes. Several processes can run it side by side. Each
// round first records every send that finished since the last one (one statement for all of them),
// which frees their slots, then claims up to the free slots (one statement): two round trips a round
// however many deliveries it moves, where a transaction per result and a claim per freed slot had
// kept the process waiting on Postgres. Woken when an order event handler committed a new delivery,
// when a send finishes, and after a registration or redelivery; WEBHOOK_POLL_MS is the safety net
// (due retries, other processes).
@Injectable()
export class DeliveryDispatcher implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger(DeliveryDispatcher.name);
  private readonly inFlight = new InFlightTracker();
  private readonly tasks = new Set<Promise<void>>();
  private finished: Finished[] = []; // sent, not yet recorded: their slots are still taken
  private readonly shutdown = new AbortController();
  private readonly loop: WakeOrPoll;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    private readonly recorder: AttemptRecorder,
    private readonly cipher: WebhookSecretCipher,
    private readonly payerData: PayerDataCipher,
    private readonly consumer: EventConsumer,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookDispatchConfig,
  ) {
    this.loop = new WakeOrPoll({
      // Every free slot filled: more may be due. Fewer: nothing else was due when claimed (or the
      // rest waits for a merchant's slot); a new delivery or a freed slot wakes the loop.
      round: async () => {
        await this.recordFinished();
        const { claimed, free } = await this.claimAndSend();
        return { busy: claimed > 0 && claimed >= free };
      },
      pollMs: config.pollMs,
      failureDelayMs: (failures) => Math.min(5000, config.pollMs * 2 ** failures),
      onFailure: (err) =>
        this.log.warn(`claiming webhook deliveries failed, retrying: ${(err as Error).message}`),
    });
  }

  onModuleInit(): void {
    // Every event this service handles (order.completed, order.failed) records a delivery.
    this.consumer.onCommitted(() => this.nudge());
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  // Runs before the DataSource closes. In-flight sends are aborted and not recorded: their lease
  // runs out and they are sent again (at-least-once), which beats holding shutdown for 10 s. Sends
  // that had finished are recorded.
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    this.shutdown.abort();
    await Promise.allSettled([...this.tasks]);
    await this.recordFinished().catch((err: unknown) =>
      this.log.warn(`webhook attempts not recorded at shutdown: ${(err as Error).message}`),
    );
  }

  // Skips the idle wait, e.g. after a registration made deliveries due.
  nudge(): void {
    this.loop.wake();
  }

  // Only the loop's round and the shutdown (after the loop stopped) call this: never two at once.
  private async recordFinished(): Promise<void> {
    if (this.finished.length === 0) return;
    const batch = this.finished;
    this.finished = [];
    try {
      await this.recorder.recordAll(batch);
    } finally {
      for (const { claim } of batch) this.inFlight.release(claim.merchantId);
    }
  }

  private async claimAndSend(): Promise<{ claimed: number; free: number }> {
    const free = this.config.maxInFlight - this.inFlight.total();
    if (free <= 0) return { claimed: 0, free };
    const claims = await this.deliveries.claimDue(this.dataSource.manager, {
      limit: free,
      perMerchant: this.config.maxInFlightPerMerchant,
      inFlight: this.inFlight.snapshot(),
      leaseMs: this.config.leaseMs,
    });
    for (const claim of claims) {
      this.inFlight.acquire(claim.merchantId);
      const task = this.deliver(claim)
        .then(
          (result) => {
            // Aborted at shutdown: not recorded, sent again after the lease.
            if (result === undefined) this.inFlight.release(claim.merchantId);
            else this.finished.push({ claim, result });
          },
          (err: unknown) => {
            // The lease runs out and the delivery is tried again.
            this.inFlight.release(claim.merchantId);
            this.log.error(
              `webhook delivery ${claim.id} attempt ${claim.attemptNo} not sent: ${(err as Error).message}`,
            );
          },
        )
        .finally(() => {
          this.tasks.delete(task);
          this.nudge(); // to record it, and a slot is free again
        });
      this.tasks.add(task);
    }
    return { claimed: claims.length, free };
  }

  private async deliver(claim: ClaimedDelivery): Promise<SendResult | undefined> {
    let result: SendResult;
    let secret: string | undefined;
    let body: string | undefined;
    try {
      secret = this.cipher.open(claim.merchantId, claim.secretEnc);
    } catch {
      secret = undefined;
    }
    try {
      body = this.payerData.openBody(claim.id, claim.body);
    } catch {
      body = undefined;
    }
    if (secret === undefined || body === undefined) {
      // Wrong or rotated encryption key: visible in the log, retried, eventually dead.
      result = {
        statusCode: null,
        retryAfter: null,
        error:
          secret === undefined ? 'signing secret cannot be decrypted' : 'delivery body cannot be decrypted',
        durationMs: 0,
      };
    } else {
      // Signed over the plaintext: the bytes the merchant receives.
      const headers = webhookHeaders({
        secret,
        eventId: claim.eventId,
        body,
        timestampSeconds: Math.floor(Date.now() / 1000),
      });
      result = await this.sender.send({
        url: claim.url,
        headers,
        body,
        timeoutMs: this.config.timeoutMs,
        sandbox: this.config.sandbox,
        allowedAddresses: this.config.allowedAddresses,
        signal: this.shutdown.signal,
      });
    }
    if (this.shutdown.signal.aborted) return undefined;
    return result;
  }
}
