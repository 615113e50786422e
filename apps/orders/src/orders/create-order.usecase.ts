import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { badRequest, IdempotentRequests } from '@onramp/http';
import { OutboxRelay, OutboxWriter, uuidv7 } from '@onramp/messaging';
import { checkOrderAmount } from '@onramp/orders-domain';
import { StoredResponse } from '@onramp/persistence';
import { generateRfReference } from '@onramp/sepa';

import { ORDERS_CONFIG, OrdersConfig } from '../config';
import { KycEligibility } from '../kyc/kyc-eligibility';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderStatusHistoryEntity } from './order-status-history.entity';
import { OrderEntity } from './order.entity';
import { presentOrder } from './order.presenter';
import { checkRecipientAddress } from './recipient-address';

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
  ) {}

  async execute(cmd: CreateOrderCommand): Promise<StoredResponse> {
    const amount = checkOrderAmount(cmd.input.amount, this.config.amountBounds);
    if (!amount.ok)
      throw badRequest('the request has invalid fields', [{ field: 'amount', message: amount.message }]);
    const recipientAddress = this.recipientOf(cmd.input);
    const response = await this.idempotency.execute(
      cmd.merchantId,
      cmd.idempotencyKey,
      cmd.rawBody,
      (manager) => this.insert(manager, cmd, amount.amount, recipientAddress),
      () => this.kyc.assertApproved(cmd.merchantId, cmd.input.kycUserUuid),
    );
    this.relay.nudge();
    return response;
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
    const now = new Date();
    const order = manager.create(OrderEntity, {
      uuid: uuidv7(now.getTime()),
      merchantId: cmd.merchantId,
      kycUserUuid: cmd.input.kycUserUuid.toLowerCase(),
      amount,
      currency: 'EUR',
      recipientAddress,
      iban: this.config.collectionIban,
      bic: this.config.collectionBic,
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
    });
    await this.insertWithFreshReference(manager, order);
    await manager.insert(OrderStatusHistoryEntity, {
      orderUuid: order.uuid,
      fromStatus: null,
      toStatus: 'CREATED',
      reason: 'order created',
      eventId: null,
      at: now,
    });
    await this.outbox.append(manager, {
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
        createdAt: now.toISOString(),
      },
    });
    return { status: 201, body: presentOrder(order) };
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
