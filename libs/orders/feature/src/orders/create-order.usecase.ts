import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { badRequest, IdempotentRequests } from '@onramp/http';
import { AppendEvent, OutboxRelay, OutboxWriter, uuidv7 } from '@onramp/messaging';
import { checkOrderAmount, checkRecipientAddress } from '@onramp/orders-domain';
import { StoredResponse } from '@onramp/persistence';
import { generateRfReference } from '@onramp/sepa';

import { ORDERS_CONFIG, OrdersConfig } from '../config';
import { KycEligibility } from '../kyc/kyc-eligibility';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderStatusHistoryEntity } from './order-status-history.entity';
import { OrderEntity } from './order.entity';
import { presentOrder } from './order.presenter';

// 18 random symbols from 32: a collision is practically impossible, but it is handled anyway.
const REFERENCE_ATTEMPTS = 5;

export interface CreateOrderCommand {
  merchantId: string;
  input: CreateOrderDto;
  rawBody: unknown;
  idempotencyKey?: string;
}

@Injectable()
export class CreateOrderUseCase {
  constructor(
    @Inject(ORDERS_CONFIG) private readonly config: OrdersConfig,
    private readonly kyc: KycEligibility,
    private readonly outbox: OutboxWriter,
    private readonly relay: OutboxRelay,
    private readonly idempotency: IdempotentRequests,
    private readonly dataSource: DataSource,
  ) {}

  async execute(cmd: CreateOrderCommand): Promise<StoredResponse> {
    const amount = checkOrderAmount(cmd.input.amount, this.config.amountBounds);
    if (!amount.ok)
      throw badRequest('the request has invalid fields', [{ field: 'amount', message: amount.message }]);
    const recipientAddress = this.recipientOf(cmd.input);
    const response =
      cmd.idempotencyKey === undefined
        ? await this.createInOneStatement(cmd, amount.amount, recipientAddress)
        : await this.createIdempotent(cmd, amount.amount, recipientAddress);
    this.relay.nudge();
    return response;
  }

  private createIdempotent(cmd: CreateOrderCommand, amount: string, recipientAddress: string): Promise<StoredResponse> {
    return this.idempotency.execute(
      cmd.merchantId,
      cmd.idempotencyKey,
      cmd.rawBody,
      (manager) => this.insert(manager, cmd, amount, recipientAddress),
      () => this.kyc.assertApproved(cmd.merchantId, cmd.input.kycUserUuid),
    );
  }

  // The hot path (no Idempotency-Key, so nothing to store): the KYC check against the local
  // projection, the order, its first history row and its order.created event in ONE statement, so
  // one round trip and still all-or-nothing. Only when the statement wrote nothing does it find out
  // why: a KYC user the projection does not know yet or not eligible (assertApproved asks the KYC
  // service or throws the 422), or a taken reference (drawn again).
  private async createInOneStatement(
    cmd: CreateOrderCommand,
    amount: string,
    recipientAddress: string,
  ): Promise<StoredResponse> {
    for (let attempt = 1; attempt <= REFERENCE_ATTEMPTS; attempt++) {
      const order = this.draft(cmd, amount, recipientAddress);
      order.reference = generateRfReference();
      const event = this.outbox.prepare(this.orderCreated(order));
      const rows: Array<{ created: number; eligible: number }> = await this.dataSource.query(
        `WITH k AS (
           SELECT 1 FROM "orders"."kyc_users" WHERE uuid = $3::uuid AND merchant_id = $2::uuid AND status = 'APPROVED'
         ), o AS (
           INSERT INTO "orders"."orders"
             (uuid, merchant_id, kyc_user_uuid, amount, currency, recipient_address, reference, iban, bic, status, created_at, updated_at, beneficiary_name)
           SELECT $1::uuid, $2::uuid, $3::uuid, $4::numeric, 'EUR', $5, $6, $7, $8, 'CREATED', $9::timestamptz, $9::timestamptz, $15
           FROM k
           ON CONFLICT DO NOTHING
           RETURNING uuid
         ), h AS (
           INSERT INTO "orders"."order_status_history" (order_uuid, from_status, to_status, reason, event_id, at)
           SELECT uuid, NULL, 'CREATED', 'order created', NULL, $9::timestamptz FROM o
         ), e AS (
           INSERT INTO ${this.outbox.table} (event_id, topic, key, envelope, headers)
           SELECT $10::uuid, $11, $12, $13::jsonb, $14::jsonb FROM o
         )
         SELECT (SELECT count(*) FROM o)::int AS created, (SELECT count(*) FROM k)::int AS eligible`,
        [
          order.uuid,
          order.merchantId,
          order.kycUserUuid,
          order.amount,
          order.recipientAddress,
          order.reference,
          order.iban,
          order.bic,
          order.createdAt,
          ...event.values,
          order.beneficiaryName,
        ],
      );
      if (rows[0].created === 1) return { status: 201, body: presentOrder(order) };
      // Not in the projection yet (asks the KYC service and records the answer) or not eligible (422).
      if (rows[0].eligible === 0) await this.kyc.assertApproved(cmd.merchantId, cmd.input.kycUserUuid);
    }
    throw new Error(`no free payment reference after ${REFERENCE_ATTEMPTS} attempts`);
  }

  // The DTO validated each spelling on its own; here they must agree.
  private recipientOf(input: CreateOrderDto): string {
    const given = [input.recepientAddress, input.recipientAddress].flatMap((value) => {
      const check = checkRecipientAddress(value);
      return check.ok ? [check.address] : [];
    });
    if (given.length === 0 || (given.length === 2 && given[0] !== given[1])) {
      const message = 'recepientAddress and its alias recipientAddress name different addresses';
      throw badRequest('the request has invalid fields', [{ field: 'recepientAddress', message }]);
    }
    return given[0];
  }

  private async insert(
    manager: EntityManager,
    cmd: CreateOrderCommand,
    amount: string,
    recipientAddress: string,
  ): Promise<StoredResponse> {
    const order = this.draft(cmd, amount, recipientAddress);
    await this.insertWithFreshReference(manager, order);
    await manager.insert(OrderStatusHistoryEntity, {
      orderUuid: order.uuid,
      fromStatus: null,
      toStatus: 'CREATED',
      reason: 'order created',
      eventId: null,
      at: order.createdAt,
    });
    await this.outbox.append(manager, this.orderCreated(order));
    return { status: 201, body: presentOrder(order) };
  }

  private draft(cmd: CreateOrderCommand, amount: string, recipientAddress: string): OrderEntity {
    const now = new Date();
    return Object.assign(new OrderEntity(), {
      uuid: uuidv7(now.getTime()),
      merchantId: cmd.merchantId,
      kycUserUuid: cmd.input.kycUserUuid.toLowerCase(),
      amount,
      currency: 'EUR',
      recipientAddress,
      iban: this.config.collectionIban,
      bic: this.config.collectionBic,
      beneficiaryName: this.config.collectionAccountName,
      status: 'CREATED',
      payedAmount: null,
      payerAccountHolderName: null,
      sentTokenAmount: null,
      transactionHash: null,
      fxRateBase: null,
      fxRateEffective: null,
      fxRateUpdatedAt: null,
      failureReason: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      failedAt: null,
    } satisfies Omit<OrderEntity, 'reference'>);
  }

  private orderCreated(order: OrderEntity): AppendEvent<typeof Topics.OrderCreated> {
    return {
      type: Topics.OrderCreated,
      key: order.uuid,
      merchantId: order.merchantId,
      data: {
        orderUuid: order.uuid,
        kycUserUuid: order.kycUserUuid,
        amount: order.amount,
        currency: 'EUR',
        recipientAddress: order.recipientAddress,
        reference: order.reference,
        createdAt: order.createdAt.toISOString(),
      },
    };
  }

  // ON CONFLICT DO NOTHING keeps the transaction usable, so a taken reference is simply redrawn.
  private async insertWithFreshReference(manager: EntityManager, order: OrderEntity): Promise<void> {
    for (let attempt = 1; attempt <= REFERENCE_ATTEMPTS; attempt++) {
      order.reference = generateRfReference();
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(OrderEntity)
        .values(order)
        .orIgnore()
        .returning(['uuid'])
        .execute();
      if ((result.raw as unknown[]).length === 1) return;
    }
    throw new Error(`no free payment reference after ${REFERENCE_ATTEMPTS} attempts`);
  }
}
