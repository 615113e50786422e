import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { describeChainError } from '@onramp/settlement-domain';

import { TransferSigner } from '../chain/transfer-signer';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { holdsLease, releaseLease, renewLease, tryAcquireLease } from './signer-leases.repository';

// The pool of hot wallets this process may sign with (SETTLEMENT_SIGNER_KEYS, or the one key or
// remote signer as a pool of one), in the configured order.
export const SIGNER_POOL = Symbol('SIGNER_POOL');

// A lease expires after this many heartbeats without renewal.
const TTL_HEARTBEATS = 3;

// Which signer of the pool this process signs with, held under a lease in settlement.signer_leases:
// taken when free or expired, renewed every SETTLEMENT_LEASE_HEARTBEAT_MS, given up at once when a
// renewal finds it taken over, released on a clean shutdown. A process holds at most one signer
// (N processes, N signers); with none free it waits as a spare and takes over the signer of a process
// that stopped renewing, with that signer's in-flight transactions and nonce counter as they are.
@Injectable()
export class SignerLeases implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('SignerLeases');
  // host, pid, start time and a random tag: unique even for two modules in one test process
  readonly holder = `${hostname()}/${process.pid}/${new Date().toISOString()}/${randomBytes(3).toString('hex')}`;
  // validUntil: by this process's clock, when the lease may have expired in the database (the time the
  // last successful renewal was sent, plus the lease's length)
  private held?: { signer: TransferSigner; validUntil: number };
  private lapsed = false;
  private timer?: NodeJS.Timeout;
  private beating?: Promise<void>;
  private stopped = false;
  private readonly acquiredListeners: Array<() => void> = [];

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SIGNER_POOL) readonly pool: readonly TransferSigner[],
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  private get ttlMs(): number {
    return this.config.leaseHeartbeatMs * TTL_HEARTBEATS;
  }

  // The first lease is taken before the app counts as started, so a process that can sign does.
  async onApplicationBootstrap(): Promise<void> {
    await this.heartbeat().catch((err: unknown) =>
      this.log.warn(`signer lease heartbeat failed: ${describeChainError(err)}`),
    );
    this.schedule(this.config.leaseHeartbeatMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  // The signer this process may work with now, if any. Past the lease's length without a renewal
  // (database unreachable, or this process starved of CPU) it pauses until a renewal succeeds again
  // or finds the lease taken over. Signing does not rely on this clock: every signing transaction
  // checks the lease in the database (confirmHeld).
  current(): TransferSigner | undefined {
    if (!this.held) return undefined;
    if (Date.now() < this.held.validUntil) return this.held.signer;
    if (!this.lapsed) {
      this.lapsed = true;
      this.log.warn(`lease of signer ${this.held.signer.address} not renewed in time; pausing until it is`);
    }
    return undefined;
  }

  // Called whenever this process takes a lease (the worker is woken: there is a signer to work with).
  onAcquired(listener: () => void): void {
    this.acquiredListeners.push(listener);
  }

  // Inside a signing transaction: the lease still holds by the database's clock (see holdsLease).
  async confirmHeld(manager: EntityManager, address: string): Promise<boolean> {
    if (await holdsLease(manager, address, this.holder)) return true;
    this.lost(address, 'the lease is no longer ours');
    return false;
  }

  // Stops renewing. With `release`, the lease expires at once so another process takes the signer
  // without waiting; without it (a crash, as tests play one), the lease runs out on its own.
  async stop(release = true): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.beating;
    const held = this.held;
    this.held = undefined;
    if (release && held) {
      await releaseLease(this.dataSource, held.signer.address, this.holder).catch((err: unknown) =>
        this.log.warn(`releasing the lease of ${held.signer.address} failed: ${describeChainError(err)}`),
      );
    }
  }

  // One heartbeat: renew the held lease, or try to take one.
  async heartbeat(): Promise<void> {
    const validUntil = Date.now() + this.ttlMs;
    if (this.held) {
      const address = this.held.signer.address;
      if (await renewLease(this.dataSource, address, this.holder, this.ttlMs)) {
        if (this.held?.signer.address === address) this.held.validUntil = validUntil;
        this.lapsed = false;
        return;
      }
      this.lost(address, 'a renewal found it taken over');
    }
    for (const signer of this.pool) {
      if (this.stopped) return;
      if (!(await tryAcquireLease(this.dataSource, signer.address, this.holder, this.ttlMs))) continue;
      this.held = { signer, validUntil };
      this.lapsed = false;
      this.log.log(`signing with ${signer.address} (lease taken by ${this.holder})`);
      for (const listener of this.acquiredListeners) listener();
      return;
    }
  }

  private lost(address: string, why: string): void {
    if (this.held?.signer.address !== address) return;
    this.held = undefined;
    this.log.error(`lost the lease of signer ${address} (${why}); stopped signing with it`);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.beating = this.heartbeat()
        .catch((err: unknown) => this.log.warn(`signer lease heartbeat failed: ${describeChainError(err)}`))
        .finally(() => this.schedule(this.config.leaseHeartbeatMs));
    }, delayMs);
    this.timer.unref();
  }
}
