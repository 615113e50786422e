import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EventEnvelope, OrderCreatedV1, OrderOutcomeFields, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';
import { normalizeReference } from '@onramp/sepa';

import { CreditMatcher } from '../matching/credit-matcher';
import { StatementCreditSettler } from '../matching/statement-credit-settler';
import {
  findEarlyStatementCreditsForUpdate,
  findReferenceForUpdate,
  findWaitingCreditsForUpdate,
  lockReferenceKeys,
} from '../matching/reference-locks';
import { OpenReferenceEntity } from './open-reference.entity';

// Learns the references to expect from the orders service. Every handler is idempotent: the
// consumer records the event id in the same transaction, and the writes themselves are upserts.
@Injectable()
export class OrderEventsHandler implements OnModuleInit {
  private readonly log = new Logger(OrderEventsHandler.name);

  constructor(
    private readonly consumer: EventConsumer,
    private readonly matcher: CreditMatcher,
    private readonly settler: StatementCreditSettler,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.OrderCreated, (event, manager) => this.onOrderCreated(event, manager));
    this.consumer.on(Topics.OrderCompleted, (event, manager) => this.closeReference(event, manager));
    this.consumer.on(Topics.OrderFailed, (event, manager) => this.closeReference(event, manager));
  }

  // Opens the reference, then settles any credit of that merchant that arrived before this event.
  async onOrderCreated(
    event: EventEnvelope<'order.created', OrderCreatedV1>,
    manager: EntityManager,
  ): Promise<void> {
    const { data, merchantId } = event;
    const reference = normalizeReference(data.reference);
    await lockReferenceKeys(manager, [reference]);
    // created_at is the order's creation, from which ORDER_TTL counts (not when this event arrived)
    await manager.query(
      `INSERT INTO "payments"."open_references" (reference, order_uuid, merchant_id, amount, currency, recipient_address, status, created_at, kyc_user_uuid)
       VALUES ($1, $2, $3, $4, $5, $6, 'OPEN', $7, $8)
       ON CONFLICT DO NOTHING`,
      [
        reference,
        data.orderUuid,
        merchantId,
        data.amount,
        data.currency,
        data.recipientAddress,
        new Date(event.occurredAt),
        data.kycUserUuid,
      ],
    );
    const ref = await findReferenceForUpdate(manager, reference);
    if (!ref || ref.orderUuid !== data.orderUuid) {
      this.log.error(
        `order ${data.orderUuid}: reference ${reference} already belongs to another order; not opened`,
      );
      return;
    }
    const waiting = await findWaitingCreditsForUpdate(manager, ref.merchantId, reference);
    for (const credit of waiting) {
      const outcome =
        credit.status === 'BOOKED' && ref.status === 'OPEN'
          ? await this.settler.settle(manager, credit, ref)
          : await this.matcher.apply(manager, credit, ref);
      this.log.log(`credit ${credit.id} received before order ${ref.orderUuid} matched: ${outcome}`);
    }
    for (const credit of await findEarlyStatementCreditsForUpdate(manager, reference)) {
      const outcome = await this.settler.settle(manager, credit, ref);
      this.log.log(
        `statement credit ${credit.id} booked before order ${ref.orderUuid} was known: ${outcome}`,
      );
    }
  }

  // A FAILED order sent no USDC: a credit of it that the bank took back (payment.reversed) had its
  // payout stopped in time, so it is no longer an unfunded payout for the operator to chase.
  private async notePayoutStopped(manager: EntityManager, orderUuid: string): Promise<void> {
    const [stopped]: [unknown[], number] = await manager.query(
      `UPDATE payments.bank_transactions SET payout_stopped_at = now(), updated_at = now()
       WHERE matched_order_uuid = $1 AND match_status = 'MATCHED' AND reversed_at IS NOT NULL AND payout_stopped_at IS NULL
       RETURNING id`,
      [orderUuid],
    );
    if (stopped.length > 0)
      this.log.log(`order ${orderUuid} FAILED: the payout of its reversed credit was stopped`);
  }

  // A finished order takes no more money. If this overtakes its order.created (another topic), a
  // CLOSED row is written first and order.created then leaves it alone.
  async closeReference(
    event: EventEnvelope<'order.completed' | 'order.failed', OrderOutcomeFields>,
    manager: EntityManager,
  ): Promise<void> {
    const { data, merchantId } = event;
    if (event.type === Topics.OrderFailed) await this.notePayoutStopped(manager, data.orderUuid);
    // An EXPIRED reference stays so: a late credit is then told apart from a second payment.
    const known = await manager.findOneBy(OpenReferenceEntity, { orderUuid: data.orderUuid });
    if (known) {
      if (known.status !== 'EXPIRED')
        await manager.update(
          OpenReferenceEntity,
          { orderUuid: data.orderUuid },
          { status: 'CLOSED', updatedAt: new Date() },
        );
      return;
    }
    const reference = normalizeReference(data.reference);
    const inserted: unknown[] = await manager.query(
      `INSERT INTO "payments"."open_references" (reference, order_uuid, merchant_id, amount, currency, recipient_address, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'CLOSED')
       ON CONFLICT DO NOTHING
       RETURNING order_uuid`,
      [reference, data.orderUuid, merchantId, data.amount, data.currency, data.recipientAddress],
    );
    if (inserted.length === 0) {
      this.log.error(
        `order ${data.orderUuid} ended, but its reference ${reference} belongs to another order; nothing closed`,
      );
    }
  }
}
