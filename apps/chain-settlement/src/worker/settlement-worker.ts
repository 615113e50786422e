import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { addLogContext, withLogContext } from '@onramp/logging';
import { OutboxRelay } from '@onramp/messaging';
import { classifyChainError, describeChainError, retryDelayMs } from '@onramp/settlement-domain';

import { ChainClient } from '../chain/chain.client';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { recordStepFailure } from '../settlements/settlement.repository';
import { DriveInFlightStep } from './drive-in-flight.step';
import { SignPendingStep } from './sign-pending.step';
import { crashPoint } from './crash-point';
import { OnPicked, StepResult } from './step-result';

// Upper bound of settlements one step handles per tick, so a backlog never starves shutdown.
const MAX_PER_TICK = 50;

// Drives settlements from PENDING to a receipt, every SETTLEMENT_POLL_MS. Starts at bootstrap,
// stops before the database closes. Any number of workers can run: rows are claimed with
// FOR UPDATE SKIP LOCKED and nonces are allocated under the signer row lock.
@Injectable()
export class SettlementWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(SettlementWorker.name);
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private chainVerified = false;
  private failedTicks = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly signing: SignPendingStep,
    private readonly inFlight: DriveInFlightStep,
    private readonly relay: OutboxRelay,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  nudge(): void {
    this.wake?.();
  }

  // Polls every SETTLEMENT_POLL_MS; while ticks fail (RPC node or database down) the pause grows
  // exponentially up to a cap, so an outage is waited out instead of hammered.
  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.tick();
        this.failedTicks = 0;
      } catch (err) {
        this.failedTicks++;
        this.log.warn(
          `settlement tick failed (${this.failedTicks} in a row), retrying: ${describeChainError(err)}`,
        );
      }
      await this.sleep(
        this.failedTicks === 0 ? this.config.pollMs : retryDelayMs(this.failedTicks - 1, this.config.pollMs),
      );
    }
  }

  // One pass: sign what is due, then drive every in-flight transaction towards its receipt.
  async tick(): Promise<void> {
    if (!(await this.verifyChain())) return;
    await this.drain((skip, onPicked) => this.signing.runOnce(skip, onPicked));
    const finalized = await this.drain((skip, onPicked) => this.inFlight.runOnce(skip, onPicked));
    if (finalized > 0) this.relay.nudge();
  }

  private async drain(step: (skip: Set<string>, onPicked: OnPicked) => Promise<StepResult>): Promise<number> {
    const skip = new Set<string>();
    let finalized = 0;
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
        if (result.kind === 'signed') crashPoint('after-sign');
        if (result.kind === 'broadcast') crashPoint('awaiting-receipt');
        if (result.kind === 'finalized') finalized++;
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
    return finalized;
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

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
