import { setMaxListeners } from 'node:events';

import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { DataSource } from 'typeorm';

import { WakeOrPoll } from '@onramp/messaging';
import { SigningKeys, signingKeysOf, webhookHeaders } from '@onramp/webhooks-domain';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';
import { ClaimedDelivery, WebhookDeliveriesRepository } from '../deliveries/webhook-deliveries.repository';
import { PayerDataCipher } from '../deliveries/payer-data.cipher';
import { WebhookSecretCipher } from '../endpoints/webhook-secret.cipher';
import { AttemptRecorder, Finished } from './attempt-recorder';
import { DeliveryLanes } from './delivery-lanes';
import { SendResult, WebhookSender } from './webhook-sender';

// Claims are made this many sends ahead of each lane (see DeliveryLanes): enough that a lane keeps
// sending while the next round trip to Postgres is under way, few enough that a hanging endpoint's
// waiting claims are sent well within their lease.
const CLAIM_AHEAD = 8;
// A lane whose send has been under way this long is not claimed further ahead.
const SLOW_SEND_MS = 1_000;
// A waiting claim is sent only if its lease still covers the whole send and this much more; otherwise
// it is left to run out and be claimed again, so two workers never send it at once on purpose.
const LEASE_MARGIN_MS = 5_000;
// A finished send is recorded within this long, or at once when this many wait: a round per send had
// meant two statements per round trip of the busiest lanes, most of them claiming nothing.
const RECORD_WITHIN_MS = 20;
const RECORD_BATCH = 64;
// At most this many results a statement, so one record's time stays bounded whatever piled up; with
// this many waiting, the loop's next claim waits for the record under way (sends outrunning their
// recording would hold ever more deliveries leased).
const MAX_RECORD_ROWS = 512;
// A lane whose merchant may have more due deliveries asks for a claim once fewer than this many of its
// send limit's worth of claims wait in it: the claim's round trip is under way while they are sent.
const LOW_WATER_SENDS = 2;

// Opened signing secrets' keys kept, one per merchant endpoint sending now.
const MAX_OPEN_SECRETS = 1_000;

// A place reserved for a delivery its handler inserts claimed (reserveHandOff).
export interface HandOff {
  leaseMs: number;
  leaseEndsAt: number; // this process's clock
}

interface HeldClaim {
  claim: ClaimedDelivery;
  leaseEndsAt: number; // this process's clock
  // A handed-over claim's body as its handler presented it, before sealing it into the row (an
  // AES-GCM open per send saved); a claimed one is opened from the row at its send.
  openedBody?: string;
}

// The dispatcher loop: claims due deliveries into per-merchant lanes whenever this process holds fewer
// than its limits, sends them concurrently (never more than maxInFlightPerMerchant for one merchant,
// so a hanging endpoint holds only its own slots), and records the outcomes. Several processes can
// run it side by side. Each round starts recording the sends that finished since the last record (one
// statement for up to MAX_RECORD_ROWS of them, unless a record is under way) and, when a claim is
// wanted, at the same time on another connection, claims up to what is free (one statement; a claim
// is free again as soon as its send ended, its delivery still leased until recorded): at most two
// statements a round however many deliveries it moves, where a transaction per result and a claim per
// freed slot had kept the process waiting on Postgres. A lane starts its next waiting send as soon as
// one ends. A new delivery is mostly not claimed at all: the order event handler inserts it claimed
// for this process and hands it over once committed (reserveHandOff, settleHandOff), which saves its
// claim's round trip and the wait for a round under way. Woken to claim when an order event handler
// committed a delivery it could not hand over, after a registration or redelivery, and when a lane
// runs low while more may be due for its merchant; WEBHOOK_POLL_MS after the last claim, a round
// claims anyway (the safety net: due retries, other processes' deliveries). A send's result is
// recorded within RECORD_WITHIN_MS of its end, or once the record under way ended, without waiting
// for the loop.
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger(DeliveryDispatcher.name);
  private readonly lanes: DeliveryLanes<HeldClaim>;
  private readonly tasks = new Set<Promise<void>>();
  private finished: Finished[] = []; // sent, not yet recorded: their deliveries are still leased
  private readonly shutdown = new AbortController();
  private readonly loop: WakeOrPoll;
  private readonly secrets = new Map<string, SigningKeys>(); // sealed -> the opened secret's keys
  private started = false; // the loop runs: handed-off claims are sent
  // What the next round claims for. A claim is wanted when something may be due that no lane holds: a
  // delivery committed without a hand-off, a registration or redelivery (nudge), a lane running low
  // whose merchant's last claim filled its share (mayHaveMore) or a claim cut short by the process's
  // own limit (moreDue); and as the safety net, pollMs after the last claim (due retries, deliveries of
  // other processes). A finished send alone only needs recording.
  private claimWanted = true;
  private lastClaimAt = 0;
  private readonly mayHaveMore = new Set<string>();
  private moreDue = false;
  private recordTimer?: NodeJS.Timeout;
  private recording?: Promise<void>; // the record under way, if any

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    private readonly recorder: AttemptRecorder,
    private readonly cipher: WebhookSecretCipher,
    private readonly payerData: PayerDataCipher,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookDispatchConfig,
  ) {
    this.lanes = new DeliveryLanes(config.maxInFlight, config.maxInFlightPerMerchant);
    // Every send listens on it: up to maxInFlight listeners at once is expected, not a leak.
    setMaxListeners(0, this.shutdown.signal);
    this.loop = new WakeOrPoll({
      // Everything free claimed: more may be due, claim again at once. Less: nothing else was due
      // when claimed (or the rest waits for a merchant's lane); see claimWanted for what asks again.
      // What finished is recorded beside the claim, on another connection, and the round does not
      // wait for it (startRecording): they touch different rows (a sent delivery is still leased, so
      // the claim cannot take it), and a lane that sent all it held waits for one round trip only.
      round: async () => {
        const claiming = this.claimWanted || Date.now() - this.lastClaimAt >= config.pollMs;
        this.claimWanted = false;
        this.startRecording();
        if (this.finished.length >= MAX_RECORD_ROWS) await this.recording;
        if (!claiming) {
          return { busy: false, recheckMs: Math.max(1, this.lastClaimAt + config.pollMs - Date.now()) };
        }
        let claimed: { claimed: number; free: number };
        try {
          claimed = await this.claim();
        } catch (err) {
          this.claimWanted = true;
          throw err;
        }
        const busy = claimed.claimed > 0 && claimed.claimed >= claimed.free;
        if (busy) this.claimWanted = true;
        return { busy };
      },
      pollMs: config.pollMs,
      failureDelayMs: (failures) => Math.min(5000, config.pollMs * 2 ** failures),
      onFailure: (err) =>
        this.log.warn(`claiming webhook deliveries failed, retrying: ${(err as Error).message}`),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
    this.started = true;
  }

  // Asked by the order event handler before it inserts a delivery for `merchantId`: whether this
  // process takes it claimed (the lease to insert it with, and its end on this process's clock,
  // reckoned before the insert so the database's lease ends later), or not (the process or the
  // merchant's lane already holding its claim-ahead share, reservations included, the lane stuck on
  // a hanging endpoint, or shutting down: the delivery is inserted due and claimed as any other). A
  // reservation counts as held until settleHandOff.
  reserveHandOff(merchantId: string): HandOff | undefined {
    if (!this.started || this.shutdown.signal.aborted) return undefined;
    const now = Date.now();
    if (this.lanes.held() >= this.aheadTotal) return undefined;
    if (this.lanes.heldFor(merchantId, this.slowLanes(now)) >= this.aheadPerMerchant) return undefined;
    this.lanes.reserve(merchantId);
    return { leaseMs: this.config.leaseMs, leaseEndsAt: now + this.config.leaseMs };
  }

  // Once the handler's transaction ended. A delivery inserted claimed (`claim`) that committed goes
  // into its merchant's lane and is sent at once, without the claim's round trip to Postgres; a crash
  // before the send leaves it leased, claimed again when the lease runs out, as any claim (so does
  // one that commits after shutdown began). A reservation that came to nothing is given back. A
  // committed delivery that was not handed over is due: the loop is woken to claim it.
  settleHandOff(
    merchantId: string,
    reserved: HandOff | undefined,
    claim: ClaimedDelivery | undefined,
    committed: boolean,
    openedBody?: string,
  ): void {
    if (reserved && claim && committed && !this.shutdown.signal.aborted) {
      this.lanes.fill(merchantId, { claim, leaseEndsAt: reserved.leaseEndsAt, openedBody });
      this.startSends();
      return;
    }
    if (reserved) this.lanes.release(merchantId);
    if (committed) this.nudge();
  }

  // Runs before the DataSource closes. In-flight sends are aborted and not recorded: their lease
  // runs out and they are sent again (at-least-once), which beats holding shutdown for 10 s. Sends
  // that had finished are recorded, and claims never sent are handed back, due at once.
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    clearTimeout(this.recordTimer);
    this.shutdown.abort();
    const unsent = this.lanes.takeWaiting();
    await Promise.allSettled([...this.tasks]);
    await this.recording;
    while (this.finished.length > 0) {
      await this.recordFinished().catch((err: unknown) =>
        this.log.warn(`webhook attempts not recorded at shutdown: ${(err as Error).message}`),
      );
    }
    await this.deliveries
      .handBack(
        this.dataSource.manager,
        unsent.map((h) => h.claim),
      )
      .catch((err: unknown) =>
        this.log.warn(`unsent webhook claims not handed back at shutdown: ${(err as Error).message}`),
      );
    this.sender.close();
  }

  // Claims at once, e.g. after a registration made deliveries due.
  nudge(): void {
    this.claimWanted = true;
    this.loop.wake();
  }

  // After a send of the merchant's ended: a claim if its lane runs low and more may be due for it,
  // else its result is recorded soon, with those of the sends that end meanwhile.
  private afterSend(merchantId: string): void {
    const lowWater = this.config.maxInFlightPerMerchant * LOW_WATER_SENDS;
    const laneLow = this.mayHaveMore.has(merchantId) && this.lanes.waitingFor(merchantId) < lowWater;
    const roomAgain =
      this.moreDue && this.aheadTotal - this.lanes.held() >= this.config.maxInFlightPerMerchant;
    if (laneLow || roomAgain) this.nudge();
    this.scheduleRecord();
  }

  // Records what finished so far (up to MAX_RECORD_ROWS) unless a record is under way: one at a time,
  // started by a round, by a batch's worth of results or by their timer, never waiting for a claim,
  // and the loop's claims do not wait for it unless MAX_RECORD_ROWS more wait. A claim that waited for
  // the record beside it had waited 50-160 ms for a record of a few hundred sends on a busy machine,
  // while the lanes it would have refilled ran dry (docs/performance-journal.md, "P4's stalls"). What
  // finishes meanwhile is recorded once this record ended. Once shutdown began, only the shutdown
  // records.
  private startRecording(): void {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    if (this.recording !== undefined || this.finished.length === 0 || this.shutdown.signal.aborted) return;
    this.recording = this.recordFinished()
      .catch((err: unknown) =>
        // The leases run out and the deliveries are sent again.
        this.log.error(`webhook attempts not recorded: ${(err as Error).message}`),
      )
      .finally(() => {
        this.recording = undefined;
        if (!this.shutdown.signal.aborted) this.scheduleRecord();
      });
  }

  // Records at once when a batch's worth waits, else within RECORD_WITHIN_MS; with a record under way,
  // when it ends.
  private scheduleRecord(): void {
    if (this.recording !== undefined) return;
    if (this.finished.length >= RECORD_BATCH) this.startRecording();
    else if (this.finished.length > 0 && this.recordTimer === undefined)
      this.recordTimer = setTimeout(() => this.startRecording(), RECORD_WITHIN_MS);
  }

  // Only startRecording and the shutdown (after the loop stopped and the last record ended) call
  // this: never two at once.
  private async recordFinished(): Promise<void> {
    if (this.finished.length === 0) return;
    const batch = this.finished.splice(0, MAX_RECORD_ROWS);
    await this.recorder.recordAll(batch);
  }

  private async claim(): Promise<{ claimed: number; free: number }> {
    this.lastClaimAt = Date.now();
    const free = this.aheadTotal - this.lanes.held();
    if (free <= 0) {
      this.moreDue = true;
      return { claimed: 0, free };
    }
    const inFlight = this.lanes.heldBy(this.slowLanes(Date.now()));
    const claims = await this.deliveries.claimDue(this.dataSource.manager, {
      limit: free,
      perMerchant: this.aheadPerMerchant,
      inFlight,
      leaseMs: this.config.leaseMs,
    });
    const leaseEndsAt = Date.now() + this.config.leaseMs;
    for (const claim of claims) this.lanes.add(claim.merchantId, { claim, leaseEndsAt });
    this.noteShares(inFlight, claims, free);
    this.startSends();
    return { claimed: claims.length, free };
  }

  // What the claim says about deliveries left due: the process's limit cut it short (anything may be
  // left), or per merchant, whether it filled the merchant's share (some may be left) or not (none was).
  private noteShares(
    inFlight: { merchantIds: string[]; counts: number[] },
    claims: ClaimedDelivery[],
    free: number,
  ): void {
    this.moreDue = claims.length >= free;
    const held = new Map<string, number>();
    inFlight.merchantIds.forEach((id, i) => held.set(id, inFlight.counts[i]));
    for (const c of claims) held.set(c.merchantId, (held.get(c.merchantId) ?? 0) + 1);
    this.mayHaveMore.clear();
    for (const [merchantId, n] of held) if (n >= this.aheadPerMerchant) this.mayHaveMore.add(merchantId);
  }

  // What the process and each merchant's lane may hold, claimed ahead of their send limits; a lane
  // with a send under way for over SLOW_SEND_MS counts as holding its whole share.
  private get aheadTotal(): number {
    return this.config.maxInFlight * CLAIM_AHEAD;
  }

  private get aheadPerMerchant(): number {
    return this.config.maxInFlightPerMerchant * CLAIM_AHEAD;
  }

  private slowLanes(now: number): { now: number; slowMs: number; full: number } {
    return { now, slowMs: SLOW_SEND_MS, full: this.aheadPerMerchant };
  }

  private startSends(): void {
    for (const { merchantId, item, startedAt } of this.lanes.start()) {
      const task = this.send(item)
        .then(
          (result) => {
            this.lanes.sent(merchantId, startedAt);
            // The lane's slot is free as soon as the send ended: the result waits for the next round's
            // recording, and the delivery stays leased until then, so no claim takes it meanwhile.
            // Aborted at shutdown, or no longer safely leased: not recorded, sent again after the lease.
            this.lanes.release(merchantId);
            if (result !== undefined) this.finished.push({ claim: item.claim, result });
          },
          (err: unknown) => {
            this.lanes.sent(merchantId, startedAt);
            // The lease runs out and the delivery is tried again.
            this.lanes.release(merchantId);
            this.log.error(
              `webhook delivery ${item.claim.id} attempt ${item.claim.attemptNo} not sent: ${(err as Error).message}`,
            );
          },
        )
        .finally(() => {
          this.tasks.delete(task);
          if (!this.shutdown.signal.aborted) this.startSends(); // the lane's next waiting claim
          this.afterSend(merchantId);
        });
      this.tasks.add(task);
    }
  }

  private async send({ claim, leaseEndsAt, openedBody }: HeldClaim): Promise<SendResult | undefined> {
    if (Date.now() + this.config.timeoutMs + LEASE_MARGIN_MS > leaseEndsAt) return undefined;
    return this.deliver(claim, openedBody);
  }

  // Opened once per sealed secret, not per send (an AES-GCM open each time had cost more than the
  // signing), and its signing keys derived with it. Keyed by the sealed value, so a rotated secret or
  // key is opened afresh.
  private openSecret(merchantId: string, sealed: string): SigningKeys {
    const key = `${merchantId} ${sealed}`;
    let keys = this.secrets.get(key);
    if (keys === undefined) {
      keys = signingKeysOf(this.cipher.open(merchantId, sealed));
      if (this.secrets.size >= MAX_OPEN_SECRETS) this.secrets.clear();
      this.secrets.set(key, keys);
    }
    return keys;
  }

  private async deliver(claim: ClaimedDelivery, openedBody?: string): Promise<SendResult | undefined> {
    let result: SendResult;
    let keys: SigningKeys | undefined;
    let body: string | undefined = openedBody;
    try {
      keys = this.openSecret(claim.merchantId, claim.secretEnc);
    } catch {
      keys = undefined;
    }
    if (body === undefined) {
      try {
        body = this.payerData.openBody(claim.id, claim.body);
      } catch {
        body = undefined;
      }
    }
    if (keys === undefined || body === undefined) {
      // Wrong or rotated encryption key: visible in the log, retried, eventually dead.
      result = {
        statusCode: null,
        retryAfter: null,
        error:
          keys === undefined ? 'signing secret cannot be decrypted' : 'delivery body cannot be decrypted',
        durationMs: 0,
      };
    } else {
      // Signed over the plaintext: the bytes the merchant receives.
      const headers = webhookHeaders({
        keys,
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
