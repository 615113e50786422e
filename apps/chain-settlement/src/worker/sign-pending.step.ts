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
import { deferSettlement, inFlightOf, lockNextDue, lockSigner } from '../settlements/settlement.repository';
import { SignerEntity } from '../settlements/signer.entity';
import { OnPicked, StepResult } from './step-result';

// How a held settlement's last_error starts: metrics count held orders by it.
export const HELD_UNDERFUNDED = 'hot wallet underfunded:';

// PENDING -> SIGNED. In one transaction: the settlement row (SKIP LOCKED), the signer row (its
// nonce counter), a balance preflight, the signature, and the stored bytes. Nothing leaves this
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

      if (s.tokenBaseUnits === null && !(await this.requote(manager, s)))
        return { kind: 'deferred', orderUuid: s.orderUuid };
      const baseUnits = BigInt(s.tokenBaseUnits as string);

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
      const shortfall = this.shortfall({ baseUnits, fees, usdc, eth, inFlight });
      if (shortfall) {
        this.log.warn(`hot wallet underfunded: settlement of order ${s.orderUuid} is held (${shortfall})`);
        await deferSettlement(manager, s, `${HELD_UNDERFUNDED} ${shortfall}`, this.config.pollMs);
        return { kind: 'deferred', orderUuid: s.orderUuid };
      }

      // Our counter normally leads; if the wallet was used elsewhere, never reuse a nonce the chain has seen.
      const counter = BigInt(signerRow.nextNonce);
      const nonce = chainPending > counter ? chainPending : counter;
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
        SignerEntity,
        { address },
        { nextNonce: (nonce + 1n).toString(), updatedAt: new Date() },
      );
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
      return { kind: 'signed', orderUuid: s.orderUuid };
    });
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
