import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { OutboxWriter } from '@onramp/messaging';
import { normalizeDecimal } from '@onramp/money';
import { assertTransition, outcomeOfReceipt, SettlementState } from '@onramp/settlement-domain';

import { describeChainError, isAlreadyKnownClue } from '../chain/broadcast-errors';
import { ChainClient, ChainReceipt } from '../chain/chain.client';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { SettlementEntity } from '../settlements/settlement.entity';
import { deferSettlement, lockNextDue } from '../settlements/settlement.repository';
import { OnPicked, StepResult } from './step-result';

export const TRANSFER_REVERTED_REASON = 'on-chain USDC transfer reverted';

// A node may drop a transaction from its mempool; the same bytes are sent again after this long.
export const REBROADCAST_AFTER_MS = 15_000;

// SIGNED/BROADCAST -> BROADCAST -> CONFIRMED | FAILED. Only the stored bytes are ever sent, so a
// restart, a retry or a second worker can at worst send the same transaction twice, which the
// chain accepts once. The outcome comes from the receipt found by hash, never from a send's answer.
@Injectable()
export class DriveInFlightStep {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly outbox: OutboxWriter,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async runOnce(skip: Set<string>, onPicked: OnPicked = () => undefined): Promise<StepResult> {
    return this.dataSource.transaction(async (manager): Promise<StepResult> => {
      const s = await lockNextDue(manager, ['SIGNED', 'BROADCAST'], skip, 'nonce');
      if (!s) return { kind: 'idle' };
      skip.add(s.orderUuid);
      onPicked(s.orderUuid);
      const txHash = s.txHash as string;

      let state: SettlementState = s.state;
      let receipt = await this.chain.receipt(txHash);
      if (!receipt && this.dueForSending(s)) {
        const sent = await this.send(s);
        if (sent === 'nonce-taken') {
          const reason = `nonce ${s.nonce} of ${s.signerAddress} was used by a transaction we did not sign; ${txHash} can never be mined. Operator action needed; the order is held`;
          this.log.error(`order ${s.orderUuid}: ${reason}`);
          await deferSettlement(manager, s, reason, this.config.pollMs);
          return { kind: 'deferred', orderUuid: s.orderUuid };
        }
        if (sent === 'known') receipt = await this.chain.receipt(txHash);
        if (state === 'SIGNED') {
          assertTransition(state, 'BROADCAST');
          state = 'BROADCAST';
        }
        await manager.update(
          SettlementEntity,
          { orderUuid: s.orderUuid },
          { state, broadcastAt: new Date(), lastError: null, attempts: 0, updatedAt: new Date() },
        );
      }
      if (!receipt) return { kind: state === s.state ? 'waiting' : 'broadcast', orderUuid: s.orderUuid };

      const confirmations = (await this.chain.blockNumber()) - receipt.blockNumber + 1;
      if (confirmations < this.config.confirmations) {
        const next: SettlementState = 'BROADCAST'; // a receipt proves the bytes reached the chain
        if (state !== next) assertTransition(state, next);
        await manager.update(
          SettlementEntity,
          { orderUuid: s.orderUuid },
          { state: next, blockNumber: String(receipt.blockNumber), updatedAt: new Date() },
        );
        return { kind: 'waiting', orderUuid: s.orderUuid };
      }
      if (state === 'SIGNED') {
        assertTransition(state, 'BROADCAST');
        state = 'BROADCAST';
      }
      const outcome = outcomeOfReceipt(receipt.status);
      assertTransition(state, outcome);
      await this.finalize(manager, s, outcome, receipt);
      return { kind: 'finalized', orderUuid: s.orderUuid, outcome };
    });
  }

  private dueForSending(s: SettlementEntity): boolean {
    return (
      s.state === 'SIGNED' || !s.broadcastAt || Date.now() - s.broadcastAt.getTime() >= REBROADCAST_AFTER_MS
    );
  }

  // 'sent': the node took it; 'known': the node already has it, or a transaction with its nonce
  // (look for our receipt); 'nonce-taken': the nonce is spent and not by us. Other errors throw.
  private async send(s: SettlementEntity): Promise<'sent' | 'known' | 'nonce-taken'> {
    try {
      await this.chain.broadcast(s.rawTx as string);
      this.log.log(`order ${s.orderUuid}: broadcast ${s.txHash}`);
      return 'sent';
    } catch (err) {
      if (!isAlreadyKnownClue(err))
        throw new Error(`broadcast of ${s.txHash} failed: ${describeChainError(err)}`);
      if (await this.chain.receipt(s.txHash as string)) return 'known';
      const mined = await this.chain.nonce(s.signerAddress as string, 'latest');
      return mined > BigInt(s.nonce as string) ? 'nonce-taken' : 'known';
    }
  }

  // The terminal state and its event commit together: transfer.* is published iff the row says so.
  private async finalize(
    manager: EntityManager,
    s: SettlementEntity,
    outcome: 'CONFIRMED' | 'FAILED',
    receipt: ChainReceipt,
  ) {
    const txHash = s.txHash as string;
    await manager.update(
      SettlementEntity,
      { orderUuid: s.orderUuid, state: In(['SIGNED', 'BROADCAST']) },
      {
        state: outcome,
        blockNumber: String(receipt.blockNumber),
        lastError: outcome === 'FAILED' ? TRANSFER_REVERTED_REASON : null,
        updatedAt: new Date(),
      },
    );
    const payedAmount = normalizeDecimal(s.payedAmount);
    if (outcome === 'FAILED') {
      this.log.warn(`order ${s.orderUuid}: transfer ${txHash} reverted on chain`);
      await this.outbox.append(manager, {
        type: Topics.TransferFailed,
        key: s.orderUuid,
        merchantId: s.merchantId,
        data: {
          orderUuid: s.orderUuid,
          transactionHash: txHash,
          payedAmount,
          reason: TRANSFER_REVERTED_REASON,
        },
      });
      return;
    }
    this.log.log(`order ${s.orderUuid}: transfer ${txHash} confirmed in block ${receipt.blockNumber}`);
    await this.outbox.append(manager, {
      type: Topics.TransferSucceeded,
      key: s.orderUuid,
      merchantId: s.merchantId,
      data: {
        orderUuid: s.orderUuid,
        transactionHash: txHash,
        payedAmount,
        sentTokenAmount: normalizeDecimal(s.tokenAmount as string),
        sentTokenCurrency: 'USDC',
        recipientAddress: s.recipientAddress,
        fxRateBase: normalizeDecimal(s.fxRateBase as string),
        fxRateEffective: normalizeDecimal(s.fxRateEffective as string),
        fxRateUpdatedAt: (s.fxRateUpdatedAt as Date).toISOString(),
        chainId: this.config.chainId,
        payerAccountHolderName: s.payerAccountHolderName,
      },
    });
  }
}
