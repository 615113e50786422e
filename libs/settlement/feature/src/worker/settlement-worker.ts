import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { addLogContext, withLogContext } from '@onramp/logging';
import { EventConsumer, OutboxRelay, RoundOutcome, WakeOrPoll } from '@onramp/messaging';
import { classifyChainError, describeChainError, retryDelayMs } from '@onramp/settlement-domain';

import { ChainClient } from '../chain/chain.client';
import { TransferSigner } from '../chain/transfer-signer';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { recordStepFailure } from '../settlements/settlement.repository';
import { SignerLeases } from '../signers/signer-leases';
import { DriveInFlightBatchStep, InFlightBatchResult } from './drive-in-flight-batch.step';
import { DriveInFlightStep } from './drive-in-flight.step';
import { SignPendingStep } from './sign-pending.step';
import { crashPoint } from './crash-point';
import { OnPicked, StepResult } from './step-result';

// Upper bound of settlements one step handles per tick, so a backlog never starves shutdown.
const MAX_PER_TICK = 50;
// Settlements signed in one transaction under one signer lock. The nonces of a batch are
// consecutive, and the in-flight step sends them in nonce order.
const SIGN_BATCH = 50;
// In-flight settlements whose receipts are looked up (and never-sent transactions sent) together.
const IN_FLIGHT_BATCH = 100;

// Drives settlements from PENDING to a receipt. Woken when a payment.confirmed handler committed a
// new PENDING settlement; runs again at once while a pass did something; looks again after
// SETTLEMENT_RECEIPT_POLL_MS while transactions wait for receipts; otherwise polls every
// SETTLEMENT_POLL_MS as a safety net (work of another process, due retries). Starts at bootstrap,
// stops before the database closes. Works only while this process holds a signer's lease
// (SignerLeases): signs PENDING settlements with that signer and drives that signer's in-flight
// ones. Any number of workers can run, one per signer and spares: PENDING rows are claimed with
// FOR UPDATE SKIP LOCKED and nonces are allocated under the signer row lock.
@Injectable()
export class SettlementWorker implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(SettlementWorker.name);
  private readonly loop: WakeOrPoll;
  private running = false;
  private chainVerified = false;
  // Whether the next tick looks for settlements to sign: after a payment.confirmed committed here, a
  // signer was taken, or a full batch was signed (more may wait); and at least every
  // SETTLEMENT_POLL_MS (work of another process, due retries, operator releases). Ticks between, that
  // only follow transactions in flight, skip the signing transaction, which would find nothing.
  private signWanted = true;
  private lastSignPass = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly signing: SignPendingStep,
    private readonly inFlight: DriveInFlightStep,
    private readonly inFlightBatchStep: DriveInFlightBatchStep,
    private readonly relay: OutboxRelay,
    private readonly consumer: EventConsumer,
    private readonly leases: SignerLeases,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {
    // While passes fail (RPC node or database down) the pause grows exponentially up to a cap, so an
    // outage is waited out instead of hammered, whatever wakes the worker meanwhile.
    this.loop = new WakeOrPoll({
      round: () => this.tick(),
      pollMs: config.pollMs,
      failureDelayMs: (failures) => retryDelayMs(failures - 1, config.pollMs),
      onFailure: (err, failures) =>
        this.log.warn(`settlement tick failed (${failures} in a row), retrying: ${describeChainError(err)}`),
    });
  }

  onModuleInit(): void {
    this.consumer.onCommitted((type) => {
      if (type === Topics.PaymentConfirmed) this.nudge();
    });
    // a signer of our own (at start, or taken over from a dead process): its work may be waiting
    this.leases.onAcquired(() => this.nudge());
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    this.running = true;
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop.stop();
  }

  nudge(): void {
    this.signWanted = true;
    this.loop.wake();
  }

  // One pass: sign what is due, then drive every in-flight transaction towards its receipt. Busy
  // when it moved a settlement on (another pass may find more, or a receipt for what it just sent);
  // while transactions only wait for receipts, the next look is SETTLEMENT_RECEIPT_POLL_MS away.
  async tick(): Promise<RoundOutcome> {
    const signer = this.leases.current();
    if (!signer) return { busy: false }; // a spare: no signer free (yet)
    if (!(await this.verifyChain())) return { busy: false };
    const signing = this.signDue() ? await this.signBatch(signer) : { progressed: 0, finalized: 0 };
    const batch = await this.inFlightBatch(signer);
    // One by one only what the batch left (a transaction of its own to find there is none otherwise).
    const driving = batch.complete
      ? { progressed: 0, waiting: 0, finalized: 0 }
      : await this.drain(
          (skip, onPicked) => this.inFlight.runOnce(signer, skip, onPicked, batch.stalled),
          batch.handled,
        );
    if (signing.finalized + batch.finalized + driving.finalized > 0) this.relay.nudge();
    return {
      busy: signing.progressed + signing.finalized + batch.sent + batch.finalized + driving.progressed > 0,
      recheckMs: batch.handled.size + driving.waiting > 0 ? this.config.receiptPollMs : undefined,
    };
  }

  // The in-flight settlements in one batch (receipts, sends, finalization); what it leaves, and
  // everything if it fails, is taken one by one by DriveInFlightStep.
  private async inFlightBatch(signer: TransferSigner): Promise<InFlightBatchResult> {
    const none: InFlightBatchResult = {
      sent: 0,
      finalized: 0,
      handled: new Set(),
      stalled: new Map(),
      complete: false,
    };
    if (!this.running) return none;
    try {
      const result = await this.inFlightBatchStep.runBatch(signer.address, IN_FLIGHT_BATCH);
      if (result.sent > 0) crashPoint('awaiting-receipt', this.config.crashPoints);
      return result;
    } catch (err) {
      this.log.warn(`driving a batch of transfers failed, one by one instead: ${describeChainError(err)}`);
      return none;
    }
  }

  private signDue(): boolean {
    if (!this.signWanted && Date.now() - this.lastSignPass < this.config.pollMs) return false;
    // cleared before the pass: a payment.confirmed committed meanwhile asks for the next one
    this.signWanted = false;
    this.lastSignPass = Date.now();
    return true;
  }

  // Signs what is due in one batch; if the batch fails (one settlement's FX quote or signature, the
  // node), nothing of it was signed and the settlements are taken one by one instead, so the failure
  // is recorded against the settlement that caused it and the others still go out.
  private async signBatch(signer: TransferSigner): Promise<{ progressed: number; finalized: number }> {
    if (!this.running) return { progressed: 0, finalized: 0 };
    let signed: number;
    let refused: number;
    try {
      const result = await this.signing.runBatch(signer, new Set(), SIGN_BATCH);
      signed = result.signed.length;
      refused = result.refused.length;
      const looked = signed + refused + result.deferred.length + result.held.length;
      if (looked >= SIGN_BATCH) this.signWanted = true; // a full batch: more may be due
    } catch (err) {
      this.log.warn(`signing a batch failed, signing one by one: ${describeChainError(err)}`);
      return this.drain((skip, onPicked) => this.signing.runOnce(signer, skip, onPicked));
    }
    if (signed > 0) crashPoint('after-sign', this.config.crashPoints);
    return { progressed: signed, finalized: refused };
  }

  private async drain(
    step: (skip: Set<string>, onPicked: OnPicked) => Promise<StepResult>,
    done: ReadonlySet<string> = new Set(),
  ): Promise<{ progressed: number; waiting: number; finalized: number }> {
    const skip = new Set<string>(done);
    const counts = { progressed: 0, waiting: 0, finalized: 0 };
    for (let i = 0; i < MAX_PER_TICK && this.running; i++) {
      let current: string | undefined;
      try {
        // Log lines of this step carry the order uuid once the step has picked its settlement.
        const result = await withLogContext({}, () =>
          step(skip, (orderUuid) => {
            current = orderUuid;
            addLogContext({ orderUuid });
          }),
        );
        if (result.kind === 'idle') break;
        if (result.kind === 'signed') crashPoint('after-sign', this.config.crashPoints);
        if (result.kind === 'broadcast') crashPoint('awaiting-receipt', this.config.crashPoints);
        if (result.kind === 'finalized') counts.finalized++;
        if (result.kind === 'waiting') counts.waiting++;
        else if (result.kind !== 'deferred') counts.progressed++;
      } catch (err) {
        if (!current) throw err;
        // The step's transaction rolled back: the settlement keeps its state and is tried again later.
        const reason = describeChainError(err);
        const kind = classifyChainError(err);
        const line = `order ${current}: settlement step failed, will retry: ${reason}`;
        const orderUuid = current;
        withLogContext({ orderUuid }, () =>
          kind === 'rejected' ? this.log.error(line) : this.log.warn(line),
        );
        await recordStepFailure(this.dataSource, current, reason, this.config.pollMs);
        // The node did not answer: the rest of the tick would only collect more timeouts.
        if (kind === 'transient') throw err;
      }
    }
    return counts;
  }

  // Signing for the wrong chain would produce transactions the node rejects (or, worse, replays
  // elsewhere): refuse to work until RPC_URL and CHAIN_ID agree.
  private async verifyChain(): Promise<boolean> {
    if (this.chainVerified) return true;
    const actual = await this.chain.chainId();
    if (actual !== this.config.chainId) {
      this.log.error(
        `RPC_URL serves chain ${actual} but CHAIN_ID is ${this.config.chainId}; no settlement is signed`,
      );
      return false;
    }
    this.chainVerified = true;
    return true;
  }
}
