import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { webhookHeaders } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { WebhookSecretCipher } from '../endpoints/webhook-secret.cipher';
import { AttemptRecorder } from './attempt-recorder';
import { ClaimedDelivery, DeliveryClaimer } from './delivery-claimer';
import { InFlightTracker } from './in-flight-tracker';
import { SendResult, WebhookSender } from './webhook-sender';

// The dispatcher loop: claims due deliveries whenever this process has free slots, sends each one
// concurrently (never more than maxInFlightPerMerchant for one merchant, so a hanging endpoint holds
// only its own slots), and records the outcome. Several processes can run it side by side.
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger(DeliveryDispatcher.name);
  private readonly inFlight = new InFlightTracker();
  private readonly tasks = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private nudged = false;

  constructor(
    private readonly claimer: DeliveryClaimer,
    private readonly sender: WebhookSender,
    private readonly recorder: AttemptRecorder,
    private readonly cipher: WebhookSecretCipher,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookDispatchConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  // Runs before the DataSource closes. In-flight sends are aborted and not recorded: their lease
  // runs out and they are sent again (at-least-once), which beats holding shutdown for 10 s.
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
    this.shutdown.abort();
    await Promise.allSettled([...this.tasks]);
  }

  // Skips the idle wait, e.g. after a registration made deliveries due.
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.claimAndSend();
        failures = 0;
      } catch (err) {
        failures++;
        this.log.warn(`claiming webhook deliveries failed, retrying: ${(err as Error).message}`);
      }
      if (!this.running) break;
      if (failures > 0) await this.sleep(Math.min(5000, this.config.pollMs * 2 ** failures));
      else if (claimed === 0) await this.sleep(this.config.pollMs);
    }
  }

  private async claimAndSend(): Promise<number> {
    const free = this.config.maxInFlight - this.inFlight.total();
    if (free <= 0) return 0;
    const claims = await this.claimer.claim({
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
    return claims.length;
  }

  private async deliver(claim: ClaimedDelivery): Promise<void> {
    let result: SendResult;
    let secret: string | undefined;
    try {
      secret = this.cipher.open(claim.merchantId, claim.secretEnc);
    } catch {
      secret = undefined;
    }
    if (secret === undefined) {
      // Wrong or rotated encryption key: visible in the log, retried, eventually dead.
      result = {
        statusCode: null,
        retryAfter: null,
        error: 'signing secret cannot be decrypted',
        durationMs: 0,
      };
    } else {
      const headers = webhookHeaders({
        secret,
        eventId: claim.eventId,
        body: claim.body,
        timestampSeconds: Math.floor(Date.now() / 1000),
      });
      result = await this.sender.send({
        url: claim.url,
        headers,
        body: claim.body,
        timeoutMs: this.config.timeoutMs,
        sandbox: this.config.sandbox,
        signal: this.shutdown.signal,
      });
    }
    if (this.shutdown.signal.aborted) return;
    await this.recorder.record(claim, result);
  }

  private sleep(ms: number): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        this.nudged = false;
        clearTimeout(t);
        resolve();
      };
    });
  }
}
