import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EventEnvelope, PaymentReversedV1, Topics } from '@onramp/contracts';
import { EventConsumer, OutboxWriter } from '@onramp/messaging';
import { assertTransition, SettlementState } from '@onramp/settlement-domain';

import { cancelUnsignedSettlement, lockSettlementState } from '../settlements/settlement.repository';
import {
  lockOrderPayment,
  orderPaymentLock,
  recordReversal,
  ReversalOutcome,
  reversalOf,
  reversedPaymentReason,
} from './payment-reversals.repository';

// payment.reversed: the bank took back the euros that paid an order. A settlement not signed yet
// (PENDING, or HELD over a payout cap) is cancelled, and the order fails (transfer.failed, nothing reached the chain), in the
// consumer's transaction. Once signed, a transfer is never withdrawn (its bytes may already be on
// the network): it goes ahead, and the reversal stays flagged on the payments side for the operator.
//
// Races with the signing worker: the worker holds the settlement row lock from picking it until its
// signature is committed; this handler waits for that lock (no SKIP LOCKED), so it sees PENDING
// (and the worker, skipping or re-reading, never signs a CANCELLED row) or SIGNED, never in between.
@Injectable()
export class PaymentReversedHandler implements OnModuleInit {
  private readonly log = new Logger(PaymentReversedHandler.name);

  constructor(
    private readonly consumer: EventConsumer,
    private readonly outbox: OutboxWriter,
  ) {}

  onModuleInit(): void {
    this.consumer.on(
      Topics.PaymentReversed,
      async (event, manager) => {
        await this.handle(event, manager);
      },
      { locksFirst: (event) => [orderPaymentLock(event.data.orderUuid)] },
    );
  }

  async handle(
    event: EventEnvelope<'payment.reversed', PaymentReversedV1>,
    manager: EntityManager,
  ): Promise<ReversalOutcome> {
    const d = event.data;
    await lockOrderPayment(manager, d.orderUuid);
    const known = await reversalOf(manager, d.orderUuid);
    if (known) {
      this.log.log(`order ${d.orderUuid}: payment.reversed ${event.id} already handled (${known.outcome})`);
      return known.outcome;
    }
    const state = await lockSettlementState(manager, d.orderUuid);
    const outcome: ReversalOutcome =
      state === undefined
        ? 'BEFORE_SETTLEMENT'
        : state === 'PENDING' || state === 'HELD' // HELD over a payout cap: not signed either
          ? 'CANCELLED'
          : 'TOO_LATE';
    const reason = reversedPaymentReason(d.reason);
    if (outcome === 'CANCELLED') {
      assertTransition(state as SettlementState, 'CANCELLED');
      await cancelUnsignedSettlement(manager, d.orderUuid, reason);
    }
    await recordReversal(manager, {
      orderUuid: d.orderUuid,
      bankTransactionId: d.bankTransactionId,
      amount: d.amount,
      reason: d.reason,
      outcome,
      settlementState: state ?? null,
    });
    if (outcome === 'TOO_LATE') {
      this.log.error(
        `order ${d.orderUuid}: its payment was reversed by the bank (${d.reason}) after the transfer was signed (${state}); the payout goes ahead unfunded, see the reversed credits`,
      );
      return outcome;
    }
    this.log.warn(`order ${d.orderUuid}: payment reversed by the bank (${d.reason}); no payout (${outcome})`);
    await this.outbox.append(manager, {
      type: Topics.TransferFailed,
      key: d.orderUuid,
      merchantId: event.merchantId,
      data: { orderUuid: d.orderUuid, transactionHash: '', payedAmount: '0', reason },
    });
    return outcome;
  }
}
