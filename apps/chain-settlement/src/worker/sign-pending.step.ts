import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { usdcToString } from '@onramp/money';
import {
  assertTransition,
  capFees,
  FeeParams,
  maxGasPrice,
  StaleFxRateError,
} from '@onramp/settlement-domain';

import { ChainClient } from '../chain/chain.client';
import { TransferSigner } from '../chain/transfer-signer';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { FxQuoteService } from '../fx/fx-quote.service';
import { SettlementEntity } from '../settlements/settlement.entity';
import { recordSignedTransaction } from '../settlements/settlement-transaction.repository';
import {
  deferSettlement,
  inFlightOf,
  lockDue,
  lockNextDue,
  lockSigner,
} from '../settlements/settlement.repository';
import { SignerEntity } from '../settlements/signer.entity';
import { OnPicked, StepResult } from './step-result';

export interface SignBatchResult {
  signed: string[]; // order uuids, in nonce order
  deferred: string[]; // held: underfunded wallet or no fresh FX rate
}

// How a held settlement's last_error starts: metrics count held orders by it.
export const HELD_UNDERFUNDED = 'hot wallet underfunded:';

// PENDING -> SIGNED. In one transaction: the settlement rows (SKIP LOCKED), the signer row (its
// nonce counter), a balance preflight, the signatures, and the stored bytes. Nothing leaves this
// process here: broadcasting happens only after these bytes are committed.
@Injectable()
export class SignPendingStep {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly signer: TransferSigner,
    private readonly fx: FxQuoteService,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async runOnce(skip: Set<string>, onPicked: OnPicked = () => undefined): Promise<StepResult> {
    return this.dataSource.transaction(async (manager): Promise<StepResult> => {
      const s = await lockNextDue(manager, ['PENDING'], skip, 'created');
      if (!s) return { kind: 'idle' };
      skip.add(s.orderUuid);
      onPicked(s.orderUuid);
      const { signed } = await this.signAll(manager, [s]);
      return { kind: signed.length > 0 ? 'signed' : 'deferred', orderUuid: s.orderUuid };
    });
  }

  // Up to `limit` due settlements signed in one transaction under one signer lock, with consecutive
  // nonces: one chain query and a few statements per settlement instead of a transaction each. All
  // or nothing: if it throws, nothing was signed, and the worker falls back to runOnce, which records
  // the failure against the one settlement that caused it.
  async runBatch(skip: Set<string>, limit: number): Promise<SignBatchResult> {
    return this.dataSource.transaction(async (manager) => {
      const due = await lockDue(manager, ['PENDING'], skip, 'created', limit);
      for (const s of due) skip.add(s.orderUuid);
      return this.signAll(manager, due);
    });
  }

  // In order of `due`: each is priced if needed, checked against the wallet's balances (on top of
  // everything signed before it, in this batch or earlier), signed with the next nonce and stored.
  private async signAll(manager: EntityManager, due: SettlementEntity[]): Promise<SignBatchResult> {
    const result: SignBatchResult = { signed: [], deferred: [] };
    const priced: SettlementEntity[] = [];
    for (const s of due) {
      if (s.tokenBaseUnits === null && !(await this.requote(manager, s))) result.deferred.push(s.orderUuid);
      else priced.push(s);
    }
    if (priced.length === 0) return result;

    const address = this.signer.address;
    const signerRow = await lockSigner(manager, address, this.config.chainId, () =>
      this.chain.nonce(address, 'pending'),
    );
    // Everything the chain has to say, asked at once (one batched JSON-RPC round trip), under the signer lock.
    const [networkFees, chainPending, usdc, eth, inFlight] = await Promise.all([
      this.chain.fees(),
      this.chain.nonce(address, 'pending'),
      this.chain.usdcBalance(address),
      this.chain.ethBalance(address),
      inFlightOf(manager, address),
    ]);
    const fees = capFees(networkFees, this.config.maxFeeWei);
    // Our counter normally leads; if the wallet was used elsewhere, never reuse a nonce the chain has seen.
    const counter = BigInt(signerRow.nextNonce);
    let nonce = chainPending > counter ? chainPending : counter;
    const committed = { ...inFlight };
    for (const s of priced) {
      const baseUnits = BigInt(s.tokenBaseUnits as string);
      const shortfall = this.shortfall({ baseUnits, fees, usdc, eth, inFlight: committed });
      if (shortfall) {
        this.log.warn(`hot wallet underfunded: settlement of order ${s.orderUuid} is held (${shortfall})`);
        await deferSettlement(manager, s, `${HELD_UNDERFUNDED} ${shortfall}`, this.config.pollMs);
        result.deferred.push(s.orderUuid);
        continue;
      }
      await this.signAndStore(manager, s, baseUnits, nonce, fees);
      committed.baseUnits += baseUnits;
      committed.count += 1n;
      nonce += 1n;
      result.signed.push(s.orderUuid);
    }
    if (result.signed.length > 0)
      await manager.update(SignerEntity, { address }, { nextNonce: nonce.toString(), updatedAt: new Date() });
    return result;
  }

  private async signAndStore(
    manager: EntityManager,
    s: SettlementEntity,
    baseUnits: bigint,
    nonce: bigint,
    fees: FeeParams,
  ): Promise<void> {
    const address = this.signer.address;
    const signed = await this.signer.sign({ recipient: s.recipientAddress, baseUnits, nonce, fees });
    assertTransition('PENDING', 'SIGNED');
    await recordSignedTransaction(manager, {
      orderUuid: s.orderUuid,
      signerAddress: address,
      nonce,
      fees,
      ...signed,
    });
    await manager.update(
      SettlementEntity,
      { orderUuid: s.orderUuid, state: 'PENDING' },
      {
        state: 'SIGNED',
        signerAddress: address,
        nonce: nonce.toString(),
        rawTx: signed.rawTx,
        txHash: signed.txHash,
        lastError: null,
        attempts: 0,
        nextAttemptAt: new Date(),
        updatedAt: new Date(),
      },
    );
    this.log.log(
      `order ${s.orderUuid}: signed ${usdcToString(baseUnits)} USDC transfer ${signed.txHash} (nonce ${nonce})`,
    );
  }

  // Describes what is missing, or returns undefined when the wallet can pay this transfer on top
  // of everything it has already signed.
  private shortfall(w: {
    baseUnits: bigint;
    fees: FeeParams;
    usdc: bigint;
    eth: bigint;
    inFlight: { baseUnits: bigint; count: bigint };
  }): string | undefined {
    const address = this.signer.address;
    const needUsdc = w.baseUnits + w.inFlight.baseUnits;
    const needWei = this.config.gasLimit * maxGasPrice(w.fees) * (w.inFlight.count + 1n);
    const missing: string[] = [];
    if (w.usdc < needUsdc)
      missing.push(`${address} holds ${usdcToString(w.usdc)} USDC, needs ${usdcToString(needUsdc)}`);
    if (w.eth < needWei) missing.push(`${address} holds ${w.eth} wei for gas, needs ${needWei}`);
    return missing.length > 0 ? missing.join('; ') : undefined;
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
      await manager.update(
        SettlementEntity,
        { orderUuid: s.orderUuid },
        { ...fields, updatedAt: new Date() },
      );
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
