import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { pooledRandomBytes } from '@onramp/crypto';
import { badRequest, IdempotentRequests } from '@onramp/http';
import { AppendEvent, OutboxRelay, OutboxWriter, uuidv7 } from '@onramp/messaging';
import { checkOrderAmount, checkRecipientAddress } from '@onramp/orders-domain';
import { GatheredWrites, StoredResponse } from '@onramp/persistence';
import { chooseCollectionAccount, generateRfReference } from '@onramp/sepa';

import { ORDERS_CONFIG, OrdersConfig } from '../config';
import { KycEligibility } from '../kyc/kyc-eligibility';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderEntity } from './order.entity';
import { presentOrder } from './order.presenter';
import { CreatedOrderAnswer, OrdersRepository, OutboxInsert } from './orders.repository';

// 18 random symbols from 32: a collision is practically impossible, but it is handled anyway.
const REFERENCE_ATTEMPTS = 5;
// How long a new order's order.created may wait in the outbox for company (OutboxRelay.nudgeWithin):
// its one consumer, payment-ingest's reference handler, gathers as long itself, and a credit that
// arrives before it is handled waits for it, as it always could.
const ORDER_CREATED_MAY_WAIT_MS = 25;

export interface CreateOrderCommand {
  merchantId: string;
  input: CreateOrderDto;
  rawBody: unknown;
  idempotencyKey?: string;
}

@Injectable()
export class CreateOrderUseCase {
  // New orders written together when they arrive together (GatheredWrites): each still checked and
  // inserted on its own terms by insertCreatedIfEligibleMany. One write at a time: an order that finds
  // one under way waits for it (a round trip) and goes with the others that gathered meanwhile.
  private readonly created: GatheredWrites<{ order: OrderEntity; event: OutboxInsert }, CreatedOrderAnswer>;

  constructor(
    @Inject(ORDERS_CONFIG) private readonly config: OrdersConfig,
    private readonly kyc: KycEligibility,
    private readonly outbox: OutboxWriter,
    private readonly relay: OutboxRelay,
    private readonly idempotency: IdempotentRequests,
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
  ) {
    this.created = new GatheredWrites({
      one: ({ order, event }) => orders.insertCreatedIfEligible(dataSource.manager, order, event),
      many: (items) => orders.insertCreatedIfEligibleMany(dataSource.manager, items),
    });
  }

  async execute(cmd: CreateOrderCommand): Promise<StoredResponse> {
    const amount = checkOrderAmount(cmd.input.amount, this.config.amountBounds);
    if (!amount.ok)
      throw badRequest('the request has invalid fields', [{ field: 'amount', message: amount.message }]);
    const recipientAddress = this.recipientOf(cmd.input);
    const response =
      cmd.idempotencyKey === undefined
        ? await this.createInOneStatement(cmd, amount.amount, recipientAddress)
        : await this.createIdempotent(cmd, amount.amount, recipientAddress);
    this.relay.nudgeWithin(ORDER_CREATED_MAY_WAIT_MS);
    return response;
  }

  private createIdempotent(
    cmd: CreateOrderCommand,
    amount: string,
    recipientAddress: string,
  ): Promise<StoredResponse> {
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
  // one round trip and still all-or-nothing (shared with the orders created beside it under load).
  // Only when the statement wrote nothing does it find out why: a KYC user the projection does not
  // know yet or not eligible (assertApproved asks the KYC service or throws the 422), or a taken
  // reference (drawn again).
  private async createInOneStatement(
    cmd: CreateOrderCommand,
    amount: string,
    recipientAddress: string,
  ): Promise<StoredResponse> {
    for (let attempt = 1; attempt <= REFERENCE_ATTEMPTS; attempt++) {
      const order = this.draft(cmd, amount, recipientAddress);
      order.reference = generateRfReference(pooledRandomBytes);
      const event = this.outbox.prepare(this.orderCreated(order));
      const written = await this.created.write({
        order,
        event: { table: this.outbox.table, values: event.values },
      });
      if (written.created) return { status: 201, body: presentOrder(order) };
      // Not in the projection yet (asks the KYC service and records the answer) or not eligible (422).
      if (!written.eligible) await this.kyc.assertApproved(cmd.merchantId, cmd.input.kycUserUuid);
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
    await this.orders.appendStatusChange(manager, {
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
    const uuid = uuidv7(now.getTime());
    // the order records the account it shows, so its payment details never change afterwards
    const account = chooseCollectionAccount(this.config.collectionAccounts, uuid);
    return Object.assign(new OrderEntity(), {
      uuid,
      merchantId: cmd.merchantId,
      kycUserUuid: cmd.input.kycUserUuid.toLowerCase(),
      amount,
      currency: 'EUR',
      recipientAddress,
      iban: account.iban,
      bic: account.bic,
      beneficiaryName: account.name,
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
      order.reference = generateRfReference(pooledRandomBytes);
      if (await this.orders.insertIfNew(manager, order)) return;
    }
    throw new Error(`no free payment reference after ${REFERENCE_ATTEMPTS} attempts`);
  }
}
