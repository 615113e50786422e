import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { AppendEvent, OutboxWriter } from '@onramp/messaging';
import { normalizeDecimal } from '@onramp/money';

import { ChainReceipt } from '../chain/chain.client';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { SettlementTransactionEntity } from '../settlements/settlement-transaction.entity';
import { SettlementEntity } from '../settlements/settlement.entity';
import { OutcomeRow, recordOutcomes } from '../settlements/settlement-batch.repository';
import { failUnsignedSettlement } from '../settlements/settlement.repository';

export const TRANSFER_REVERTED_REASON = 'on-chain USDC transfer reverted';

export interface Finalization {
  s: SettlementEntity;
  outcome: 'CONFIRMED' | 'FAILED';
  receipt: ChainReceipt;
  mined: SettlementTransactionEntity; // whichever of the settlement's transactions was mined
}

// BROADCAST -> CONFIRMED | FAILED from the receipt of whichever of the settlement's transactions
// was mined; that transaction's hash is the one recorded and reported. The terminal state and
// its event commit together: transfer.* is published iff the row says so.
@Injectable()
export class SettlementFinalizer {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly outbox: OutboxWriter,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  // PENDING -> FAILED before anything was signed (screening refused the recipient): no nonce, no
  // transaction; transfer.failed carries an empty hash and the reason, and the order fails.
  async refuseBeforeSigning(manager: EntityManager, s: SettlementEntity, reason: string): Promise<void> {
    await failUnsignedSettlement(manager, s.orderUuid, reason);
    this.log.warn(`order ${s.orderUuid}: ${reason}`);
    await this.outbox.append(manager, {
      type: Topics.TransferFailed,
      key: s.orderUuid,
      merchantId: s.merchantId,
      traceparent: s.traceparent ?? undefined,
      data: {
        orderUuid: s.orderUuid,
        transactionHash: '',
        payedAmount: normalizeDecimal(s.payedAmount),
        reason,
      },
    });
  }

  async finalize(
    manager: EntityManager,
    s: SettlementEntity,
    outcome: 'CONFIRMED' | 'FAILED',
    receipt: ChainReceipt,
    mined: SettlementTransactionEntity,
  ): Promise<void> {
    await this.finalizeAll(manager, [{ s, outcome, receipt, mined }]);
  }

  // Many settlements at once: every outcome and its transfer.* event in one statement.
  async finalizeAll(manager: EntityManager, settlements: Finalization[]): Promise<void> {
    const rows = settlements.map(({ s, outcome, receipt, mined }): OutcomeRow => {
      const lastError = outcome === 'FAILED' ? TRANSFER_REVERTED_REASON : null;
      if (outcome === 'FAILED')
        this.log.warn(`order ${s.orderUuid}: transfer ${mined.txHash} reverted on chain`);
      else
        this.log.log(
          `order ${s.orderUuid}: transfer ${mined.txHash} confirmed in block ${receipt.blockNumber}`,
        );
      return {
        orderUuid: s.orderUuid,
        outcome,
        txHash: mined.txHash,
        rawTx: mined.rawTx,
        blockNumber: receipt.blockNumber,
        lastError,
        event: this.outbox.prepare(this.eventOf(s, outcome, mined.txHash)).values,
      };
    });
    await recordOutcomes(manager, this.outbox.table, rows);
  }

  private eventOf(
    s: SettlementEntity,
    outcome: 'CONFIRMED' | 'FAILED',
    txHash: string,
  ): AppendEvent<typeof Topics.TransferFailed> | AppendEvent<typeof Topics.TransferSucceeded> {
    const payedAmount = normalizeDecimal(s.payedAmount);
    // the order's trace, from payment.confirmed
    const common = { key: s.orderUuid, merchantId: s.merchantId, traceparent: s.traceparent ?? undefined };
    if (outcome === 'FAILED')
      return {
        ...common,
        type: Topics.TransferFailed,
        data: {
          orderUuid: s.orderUuid,
          transactionHash: txHash,
          payedAmount,
          reason: TRANSFER_REVERTED_REASON,
        },
      };
    return {
      ...common,
      type: Topics.TransferSucceeded,
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
    };
  }
}
