import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { usdcToString } from '@onramp/money';
import {
  assertTransition,
  capFees,
  gasLimitFromEstimate,
  PAYOUT_CAP_WINDOW_MS,
  StaleFxRateError,
} from '@onramp/settlement-domain';

import { ChainClient } from '../chain/chain.client';
import { RecipientScreening } from '../chain/recipient-screening';
import { TransferSigner } from '../chain/transfer-signer';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { FxQuoteService } from '../fx/fx-quote.service';
import { SettlementEntity } from '../settlements/settlement.entity';
import { SignedRow, storeSigned } from '../settlements/settlement-batch.repository';
import {
  deferSettlement,
  holdSettlement,
  lockDueToSign,
  lockNextDue,
  lockSigner,
  recordQuote,
  returnHeldToPending,
  walletCommitments,
} from '../settlements/settlement.repository';
import { SignerLeases } from '../signers/signer-leases';
import { SettlementFinalizer } from './settlement-finalizer.service';
import { overCapReason, walletShortfall } from './payout-preflight';
import { OnPicked, StepResult } from './step-result';

export interface SignBatchResult {
  signed: string[]; // order uuids, in nonce order
  deferred: string[]; // waiting: underfunded wallet or no fresh FX rate
  held: string[]; // HELD: over a payout cap
  refused: string[]; // FAILED before signing: the recipient was refused by screening
}

// How a held settlement's last_error starts: metrics count held orders by it.
export const HELD_UNDERFUNDED = 'hot wallet underfunded:';
export const HELD_OVER_CAP = 'over payout cap:';

// A settlement held over a cap is looked at again this often (the rolling window may have room).
export const HOLD_RECHECK_MS = 60_000;

type Estimate = { gas: bigint } | { error: unknown };

interface ToSign {
  s: SettlementEntity;
  baseUnits: bigint;
  nonce: bigint;
}

// PENDING (or HELD) -> SIGNED, with the signer this process holds the lease of. In one transaction:
// the lease (still ours, share-locked so no take-over meets a signing half done), the settlement rows
// (SKIP LOCKED), the signer row (its nonce counter), recipient screening, the payout caps, a balance preflight, a gas
// estimate, the signatures, and the stored bytes. Nothing leaves this process here: broadcasting
// happens only after these bytes are committed. A settlement refused, held or deferred here takes
// no nonce, so the wallet's nonces stay gapless.
@Injectable()
export class SignPendingStep {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly leases: SignerLeases,
    private readonly screening: RecipientScreening,
    private readonly finalizer: SettlementFinalizer,
    private readonly fx: FxQuoteService,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async runOnce(
    signer: TransferSigner,
    skip: Set<string>,
    onPicked: OnPicked = () => undefined,
  ): Promise<StepResult> {
    return this.dataSource.transaction(async (manager): Promise<StepResult> => {
      if (!(await this.leases.confirmHeld(manager, signer.address))) return { kind: 'idle' };
      const s = await lockNextDue(manager, ['PENDING', 'HELD'], skip, 'created');
      if (!s) return { kind: 'idle' };
      skip.add(s.orderUuid);
      onPicked(s.orderUuid);
      const r = await this.signAll(manager, signer, [s]);
      if (r.signed.length > 0) return { kind: 'signed', orderUuid: s.orderUuid };
      if (r.refused.length > 0) return { kind: 'finalized', orderUuid: s.orderUuid, outcome: 'FAILED' };
      return { kind: 'deferred', orderUuid: s.orderUuid };
    });
  }

  // Up to `limit` due settlements signed in one transaction under one signer lock, with consecutive
  // nonces: one chain query and a few statements per settlement instead of a transaction each. All
  // or nothing: if it throws, nothing was signed, and the worker falls back to runOnce, which records
  // the failure against the one settlement that caused it.
  async runBatch(signer: TransferSigner, skip: Set<string>, limit: number): Promise<SignBatchResult> {
    return this.dataSource.transaction(async (manager) => {
      // The lease, the settlements and the signer's nonce counter in one round trip: nothing comes
      // back unless the lease is still ours (the heartbeat notices a lease lost meanwhile).
      const { due, nextNonce } = await lockDueToSign(
        manager,
        { signerAddress: signer.address, holder: this.leases.holder },
        skip,
        limit,
      );
      for (const s of due) skip.add(s.orderUuid);
      return this.signAll(manager, signer, due, nextNonce);
    });
  }

  // In order of `due`: each is priced if needed, screened, checked against the payout caps and the
  // wallet's balances (on top of everything signed before it, in this batch or earlier), given the
  // next nonce; then all of them get their gas estimates, are signed and stored.
  // `lockedNonce`: the signer row's counter, already locked by the caller (lockDueToSign).
  private async signAll(
    manager: EntityManager,
    signer: TransferSigner,
    due: SettlementEntity[],
    lockedNonce?: string,
  ): Promise<SignBatchResult> {
    const result: SignBatchResult = { signed: [], deferred: [], held: [], refused: [] };
    const priced: SettlementEntity[] = [];
    for (const s of due) {
      if (s.tokenBaseUnits === null && !(await this.requote(manager, s))) result.deferred.push(s.orderUuid);
      else priced.push(s);
    }
    if (priced.length === 0) return result;

    const address = signer.address;
    const nextNonce =
      lockedNonce ??
      (await lockSigner(manager, address, this.config.chainId, () => this.chain.nonce(address, 'pending')))
        .nextNonce;
    // Everything the chain has to say, asked at once (one batched JSON-RPC round trip), under the signer
    // lock: the gas estimates too, before the checks below have picked what is signed.
    const estimates = this.estimateAll(address, priced);
    const [networkFees, chainPending, usdc, eth, wallet, refusals] = await Promise.all([
      this.chain.fees(),
      this.chain.nonce(address, 'pending'),
      this.chain.usdcBalance(address),
      this.chain.ethBalance(address),
      walletCommitments(manager, address, PAYOUT_CAP_WINDOW_MS),
      this.screening.refusals(priced.map((s) => s.recipientAddress)),
    ]);
    const fees = capFees(networkFees, this.config.maxFeeWei);
    // Our counter normally leads; if the wallet was used elsewhere, never reuse a nonce the chain has seen.
    const counter = BigInt(nextNonce);
    let nonce = chainPending > counter ? chainPending : counter;
    const committed = { ...wallet.inFlight };
    let signedToday = wallet.signedInWindow;
    const toSign: ToSign[] = [];
    for (const s of priced) {
      const baseUnits = BigInt(s.tokenBaseUnits as string);
      const refusal = refusals.get(s.recipientAddress.toLowerCase());
      if (refusal) {
        assertTransition(s.state, 'FAILED');
        await this.finalizer.refuseBeforeSigning(manager, s, refusal);
        result.refused.push(s.orderUuid);
        continue;
      }
      const overCap =
        s.releasedBy === null ? overCapReason(baseUnits, signedToday, this.config.payoutCaps) : undefined;
      if (overCap) {
        if (s.state === 'PENDING') {
          assertTransition(s.state, 'HELD');
          this.log.warn(`order ${s.orderUuid}: settlement HELD, ${overCap}`);
        }
        await holdSettlement(manager, s, `${HELD_OVER_CAP} ${overCap}`, HOLD_RECHECK_MS);
        result.held.push(s.orderUuid);
        continue;
      }
      const shortfall = walletShortfall({
        address,
        gasPerTransfer: this.config.gasLimit ?? this.config.gasCeiling,
        baseUnits,
        fees,
        usdc,
        eth,
        inFlight: committed,
      });
      if (shortfall) {
        if (s.state === 'HELD') await this.releaseToPending(manager, s); // within the caps now: only funds are missing
        this.log.warn(`hot wallet underfunded: settlement of order ${s.orderUuid} is held (${shortfall})`);
        await deferSettlement(manager, s, `${HELD_UNDERFUNDED} ${shortfall}`, this.config.pollMs);
        result.deferred.push(s.orderUuid);
        continue;
      }
      toSign.push({ s, baseUnits, nonce });
      committed.baseUnits += baseUnits;
      committed.count += 1n;
      signedToday += baseUnits;
      nonce += 1n;
    }
    if (toSign.length === 0) return result;

    // Each estimate was made against the chain as it is now, and the wallet holds each amount (the
    // preflight above), so an estimate that failed for a settlement being signed means its transfer
    // would revert: it throws, nothing is signed, and the settlement that caused it is retried alone.
    const gasLimits = await Promise.all(toSign.map((t) => this.gasLimitFor(t, estimates.get(t.s.orderUuid))));
    const signatures = await Promise.all(
      toSign.map((t, i) =>
        signer.sign({
          recipient: t.s.recipientAddress,
          baseUnits: t.baseUnits,
          nonce: t.nonce,
          fees,
          gasLimit: gasLimits[i] as bigint,
        }),
      ),
    );
    // Every transaction stored and its settlement SIGNED in one statement, before anything is sent.
    const rows = toSign.map((t, i): SignedRow => {
      if (t.s.state === 'HELD') assertTransition('HELD', 'PENDING'); // released: the window has room, or an operator
      assertTransition('PENDING', 'SIGNED');
      const signed = signatures[i] as { rawTx: string; txHash: string };
      return { orderUuid: t.s.orderUuid, from: t.s.state as SignedRow['from'], nonce: t.nonce, ...signed };
    });
    await storeSigned(manager, { address, nextNonce: nonce }, fees, rows, new Date());
    for (const [i, t] of toSign.entries()) {
      const r = rows[i] as SignedRow;
      this.log.log(
        `order ${r.orderUuid}: signed ${usdcToString(t.baseUnits)} USDC transfer ${r.txHash} (nonce ${r.nonce})`,
      );
      result.signed.push(r.orderUuid);
    }
    return result;
  }

  private async releaseToPending(manager: EntityManager, s: SettlementEntity): Promise<void> {
    assertTransition('HELD', 'PENDING');
    await returnHeldToPending(manager, s.orderUuid);
    s.state = 'PENDING';
  }

  // The node's gas estimate for each priced settlement's transfer (none when SETTLEMENT_GAS_LIMIT
  // fixes it), asked before the checks decide which are signed. A failed estimate is kept, not
  // thrown: it matters only for a settlement that is then signed (a wallet short of the amount fails
  // the estimate too, and that settlement is deferred by the preflight, not failed).
  private estimateAll(address: string, priced: SettlementEntity[]): Map<string, Promise<Estimate>> {
    const estimates = new Map<string, Promise<Estimate>>();
    if (this.config.gasLimit !== undefined) return estimates;
    for (const s of priced)
      estimates.set(
        s.orderUuid,
        this.chain.estimateTransferGas(address, s.recipientAddress, BigInt(s.tokenBaseUnits as string)).then(
          (gas): Estimate => ({ gas }),
          (error: unknown): Estimate => ({ error }),
        ),
      );
    return estimates;
  }

  // Fixed when SETTLEMENT_GAS_LIMIT is set; otherwise the node's estimate plus the buffer, within
  // SETTLEMENT_GAS_CEILING.
  private async gasLimitFor(t: ToSign, estimated: Promise<Estimate> | undefined): Promise<bigint> {
    if (this.config.gasLimit !== undefined) return this.config.gasLimit;
    const result = await (estimated as Promise<Estimate>);
    if ('error' in result) throw result.error;
    const estimate = result.gas;
    const choice = gasLimitFromEstimate(estimate, this.config.gasBufferPercent, this.config.gasCeiling);
    if (choice.kind === 'over-ceiling')
      throw new Error(
        `order ${t.s.orderUuid}: the transfer needs ${choice.needed} gas by the node's estimate, above ` +
          `SETTLEMENT_GAS_CEILING ${this.config.gasCeiling}; not signed`,
      );
    return choice.gasLimit;
  }

  // The rate was stale when the payment was confirmed: price it now, or keep waiting for a fresh rate.
  private async requote(manager: EntityManager, s: SettlementEntity): Promise<boolean> {
    try {
      const q = await this.fx.quote(s.payedAmount);
      const fields = {
        fxRateBase: q.fxRateBase,
        fxRateEffective: q.fxRateEffective,
        fxRateUpdatedAt: q.fxRateUpdatedAt,
        tokenAmount: q.sentTokenAmount,
        tokenBaseUnits: q.baseUnits.toString(),
      };
      await recordQuote(manager, s.orderUuid, fields);
      await this.fx.log(manager, s.orderUuid, s.payedAmount, q);
      Object.assign(s, fields);
      return true;
    } catch (err) {
      if (!(err instanceof StaleFxRateError)) throw err;
      this.log.warn(`order ${s.orderUuid}: no fresh FX rate (${err.message}); settlement held`);
      await deferSettlement(manager, s, `no fresh FX rate: ${err.message}`, this.config.pollMs);
      return false;
    }
  }
}
