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
import { AttemptRecorder } from './attempt-recorder';
import { InFlightTracker } from './in-flight-tracker';
import { SendResult, WebhookSender } from './webhook-sender';

// The dispatcher loop: claims due deliveries whenever this process has free slots, sends each one
// concurrently (never more than maxInFlightPerMerchant for one merchant, so a hanging endpoint holds
// only its own slots), and records the outcome. Several processes can run it side by side. Woken
// when an order event handler committed a new delivery, when a slot frees up, and after a
// registration or redelivery; WEBHOOK_POLL_MS is the safety net (due retries, other processes).
@Injectable()
export class DeliveryDispatcher implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger(DeliveryDispatcher.name);
  private readonly inFlight = new InFlightTracker();
  private readonly tasks = new Set<Promise<void>>();
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
  // runs out and they are sent again (at-least-once), which beats holding shutdown for 10 s.
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    this.shutdown.abort();
    await Promise.allSettled([...this.tasks]);
  }

  // Skips the idle wait, e.g. after a registration made deliveries due.
  nudge(): void {
    this.loop.wake();
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
        .catch((err: unknown) => {
          // The lease runs out and the delivery is tried again.
          this.log.error(
            `webhook delivery ${claim.id} attempt ${claim.attemptNo} not recorded: ${(err as Error).message}`,
          );
        })
        .finally(() => {
          this.inFlight.release(claim.merchantId);
          this.tasks.delete(task);
          this.nudge(); // a slot is free again
        });
      this.tasks.add(task);
    }
    return { claimed: claims.length, free };
  }

  private async deliver(claim: ClaimedDelivery): Promise<void> {
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
    if (this.shutdown.signal.aborted) return;
    await this.recorder.record(claim, result);
  }
}
