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

// Upper bound of settlements one step handles per pass, so a backlog never starves shutdown.
const MAX_PER_TICK = 50;
// Settlements signed in one transaction under one signer lock. The nonces of a batch are
// consecutive, and the in-flight step sends them in nonce order.
const SIGN_BATCH = 50;
// In-flight settlements whose receipts are looked up (and never-sent transactions sent) together.
const IN_FLIGHT_BATCH = 100;

// Drives settlements from PENDING to a receipt, in two lanes that run side by side, each a
// wake-or-poll loop with its own transactions: the signing lane (PENDING -> SIGNED) and the
// in-flight lane (SIGNED/BROADCAST -> sent -> receipt -> CONFIRMED | FAILED). A new settlement waits
// only for the signing pass under way, not also for the sends and receipts of the batch before it,
// and the in-flight lane sends what was signed as soon as the signing transaction commits. The lanes
// touch disjoint rows (PENDING/HELD against SIGNED/BROADCAST, each locked FOR UPDATE SKIP LOCKED),
// and the signing lane commits its batches one after the other under the signer row lock, so the
// in-flight lane still finds the signed transactions in nonce order and sends only committed bytes.
// The signing lane is woken when a payment.confirmed handler committed a new PENDING settlement and
// runs again at once after a full batch; the in-flight lane is woken by a signing commit, runs
// again at once while a pass moved something, and looks again after SETTLEMENT_RECEIPT_POLL_MS
// while transactions wait for receipts. Both poll every SETTLEMENT_POLL_MS as a safety net (work of
// another process, due retries, operator releases). Both start at bootstrap and stop before the
// database closes, and both work only while this process holds a signer's lease (SignerLeases).
// Any number of workers can run, one per signer and spares: PENDING rows are claimed with
// FOR UPDATE SKIP LOCKED and nonces are allocated under the signer row lock.
@Injectable()
export class SettlementWorker implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(SettlementWorker.name);
  private readonly signingLane: WakeOrPoll;
  private readonly inFlightLane: WakeOrPoll;
  private running = false;
  private chainVerified = false;

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
    // outage is waited out instead of hammered, whatever wakes the lane meanwhile.
    const lane = (name: string, round: () => Promise<RoundOutcome>): WakeOrPoll =>
      new WakeOrPoll({
        round,
        pollMs: config.pollMs,
        failureDelayMs: (failures) => retryDelayMs(failures - 1, config.pollMs),
        onFailure: (err, failures) =>
          this.log.warn(
            `settlement ${name} pass failed (${failures} in a row), retrying: ${describeChainError(err)}`,
          ),
      });
    this.signingLane = lane('signing', () => this.signingPass());
    this.inFlightLane = lane('in-flight', () => this.inFlightPass());
  }

  onModuleInit(): void {
    this.consumer.onCommitted((type) => {
      if (type === Topics.PaymentConfirmed) this.nudge();
    });
    // a signer of our own (at start, or taken over from a dead process): its work may be waiting
    this.leases.onAcquired(() => {
      this.signingLane.wake();
      this.inFlightLane.wake();
    });
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    this.running = true;
    this.signingLane.start();
    this.inFlightLane.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all([this.signingLane.stop(), this.inFlightLane.stop()]);
  }

  // A new PENDING settlement was committed in this process.
  nudge(): void {
    this.signingLane.wake();
  }

  // One signing pass: what is due, signed in one batch. Busy after a full batch (more may be due);
  // otherwise the lane sleeps until the next payment.confirmed or the safety-net poll.
  async signingPass(): Promise<RoundOutcome> {
    const signer = this.leases.current();
    if (!signer) return { busy: false }; // a spare: no signer free (yet)
    if (!(await this.verifyChain())) return { busy: false };
    const signing = await this.signBatch(signer);
    if (signing.progressed > 0) this.inFlightLane.wake(); // committed: the bytes may be sent now
    if (signing.finalized > 0) this.relay.nudge();
    return { busy: signing.full };
  }

  // One in-flight pass: every in-flight transaction driven towards its receipt. Busy when it moved a
  // settlement on (another pass may find more, or a receipt for what it just sent); while
  // transactions only wait for receipts, the next look is SETTLEMENT_RECEIPT_POLL_MS away.
  async inFlightPass(): Promise<RoundOutcome> {
    const signer = this.leases.current();
    if (!signer) return { busy: false };
    if (!(await this.verifyChain())) return { busy: false };
    const batch = await this.inFlightBatch(signer);
    // One by one only what the batch left (a transaction of its own to find there is none otherwise).
    const driving = batch.complete
      ? { progressed: 0, waiting: 0, finalized: 0 }
      : await this.drain((skip, onPicked) => this.inFlight.runOnce(signer, skip, onPicked), batch.handled);
    if (batch.finalized + driving.finalized > 0) this.relay.nudge();
    return {
      busy: batch.sent + batch.finalized + driving.progressed > 0,
      recheckMs: batch.handled.size + driving.waiting > 0 ? this.config.receiptPollMs : undefined,
    };
  }

  // The in-flight settlements in one batch (receipts, sends, finalization); what it leaves, and
  // everything if it fails, is taken one by one by DriveInFlightStep.
  private async inFlightBatch(signer: TransferSigner): Promise<InFlightBatchResult> {
    const none: InFlightBatchResult = { sent: 0, finalized: 0, handled: new Set(), complete: false };
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

  // Signs what is due in one batch; if the batch fails (one settlement's FX quote or signature, the
  // node), nothing of it was signed and the settlements are taken one by one instead, so the failure
  // is recorded against the settlement that caused it and the others still go out.
  private async signBatch(
    signer: TransferSigner,
  ): Promise<{ progressed: number; finalized: number; full: boolean }> {
    if (!this.running) return { progressed: 0, finalized: 0, full: false };
    let signed: number;
    let refused: number;
    let full: boolean;
    try {
      const result = await this.signing.runBatch(signer, new Set(), SIGN_BATCH);
      signed = result.signed.length;
      refused = result.refused.length;
      const looked = signed + refused + result.deferred.length + result.held.length;
      full = looked >= SIGN_BATCH; // more may be due
    } catch (err) {
      this.log.warn(`signing a batch failed, signing one by one: ${describeChainError(err)}`);
      const one = await this.drain((skip, onPicked) => this.signing.runOnce(signer, skip, onPicked));
      return { ...one, full: false };
    }
    if (signed > 0) crashPoint('after-sign', this.config.crashPoints);
    return { progressed: signed, finalized: refused, full };
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
        // The node did not answer: the rest of the pass would only collect more timeouts.
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
