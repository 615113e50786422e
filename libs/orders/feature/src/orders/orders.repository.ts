import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { OrderStatus, TerminalOrderStatus } from '@onramp/orders-domain';
import { genericPlan, queryRows, withGenericPlan } from '@onramp/persistence';
import { OUTBOX_COLUMNS, OutboxRowValues } from '@onramp/messaging';

import { KYC_USERS, ORDER_STATUS_HISTORY, ORDERS } from '../persistence/orders-tables';
import { OrderStatusHistoryEntity } from './order-status-history.entity';
import { OrderEntity, OrderFacts } from './order.entity';

const COLUMNS = `uuid, merchant_id AS "merchantId", kyc_user_uuid AS "kycUserUuid", amount, currency,
  recipient_address AS "recipientAddress", reference, iban, bic, beneficiary_name AS "beneficiaryName", status,
  payed_amount AS "payedAmount", payer_account_holder_name AS "payerAccountHolderName",
  sent_token_amount AS "sentTokenAmount", transaction_hash AS "transactionHash", fx_rate_base AS "fxRateBase",
  fx_rate_effective AS "fxRateEffective", fx_rate_updated_at AS "fxRateUpdatedAt",
  failure_reason AS "failureReason", created_at AS "createdAt", updated_at AS "updatedAt",
  completed_at AS "completedAt", failed_at AS "failedAt"`;

// The columns of OrderFacts, under the same names as in COLUMNS.
const FACT_COLUMNS = `uuid, merchant_id AS "merchantId", kyc_user_uuid AS "kycUserUuid", amount, currency,
  reference, recipient_address AS "recipientAddress"`;

const HISTORY_COLUMNS = `id, order_uuid AS "orderUuid", from_status AS "fromStatus", to_status AS "toStatus",
  reason, event_id AS "eventId", at`;

// Newest first, the order of the orders_merchant_newest index.
const NEWEST_FIRST = 'ORDER BY created_at DESC, uuid DESC';

export type StatusChangeRow = Omit<OrderStatusHistoryEntity, 'id'>;

// An outbox row made by OutboxWriter.prepare, for a statement that writes it beside the order.
export interface OutboxInsert {
  table: string;
  values: OutboxRowValues; // OUTBOX_COLUMNS'
}

// What writing a new order found: written, or why not (a KYC user not approved in the projection:
// eligible false; a reference taken: eligible, not created).
export interface CreatedOrderAnswer {
  created: boolean;
  eligible: boolean;
}

export interface CompletionFacts {
  payedAmount: string;
  payerAccountHolderName: string;
  sentTokenAmount: string;
  transactionHash: string;
  fxRateBase: string;
  fxRateEffective: string;
  fxRateUpdatedAt: Date;
}

// Why an order moved: the history row's reason, the event that moved it and when.
export interface StatusChangeCause {
  reason: string;
  eventId: string;
  at: Date;
}

export interface FailureChange {
  payedAmount: string;
  transactionHash: string | null; // null when nothing reached the chain
  failureReason: string;
}

// The SQL of the order aggregate: an order and the history of its statuses. Every method takes the
// manager of the caller's transaction (the consumer's in an event handler, the idempotency store's
// in a use case) or the DataSource's for a read outside one: the caller decides what commits
// together. The moves out of CREATED are conditional on it, so a race cannot complete and fail one
// order; they answer whether they moved it.
@Injectable()
export class OrdersRepository {
  // Scoped by merchant: another merchant's order is indistinguishable from none.
  async findForMerchant(
    db: EntityManager,
    merchantId: string,
    uuid: string,
  ): Promise<OrderEntity | undefined> {
    const [row] = await queryRows<OrderEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${ORDERS} WHERE merchant_id = $1 AND uuid = $2`,
      [merchantId, uuid],
    );
    return row;
  }

  // Any merchant's order (the operator's reads).
  async find(db: EntityManager, uuid: string): Promise<OrderEntity | undefined> {
    const [row] = await queryRows<OrderEntity>(db, `SELECT ${COLUMNS} FROM ${ORDERS} WHERE uuid = $1`, [
      uuid,
    ]);
    return row;
  }

  // Locked until the caller's transaction ends: the event handlers move an order under this lock.
  async findForUpdate(db: EntityManager, uuid: string): Promise<OrderEntity | undefined> {
    const [row] = await queryRows<OrderEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${ORDERS} WHERE uuid = $1 FOR UPDATE`,
      [uuid],
    );
    return row;
  }

  // A page of the orders matching every given filter (none: all of them), and how many match.
  async listPage(
    db: EntityManager,
    filter: { merchantId?: string; status?: OrderStatus },
    page: { limit: number; offset: number },
  ): Promise<{ orders: OrderEntity[]; total: number }> {
    const params: unknown[] = [];
    const conditions: string[] = [];
    if (filter.merchantId !== undefined) {
      params.push(filter.merchantId);
      conditions.push(`merchant_id = $${params.length}`);
    }
    if (filter.status !== undefined) {
      params.push(filter.status);
      conditions.push(`status = $${params.length}`);
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const orders = await queryRows<OrderEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${ORDERS} ${where} ${NEWEST_FIRST}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    const [count] = await queryRows<{ total: number }>(
      db,
      `SELECT count(*)::int AS total FROM ${ORDERS} ${where}`,
      params,
    );
    return { orders, total: count?.total ?? 0 };
  }

  async existsForMerchant(db: EntityManager, merchantId: string, uuid: string): Promise<boolean> {
    const rows = await queryRows(db, `SELECT 1 FROM ${ORDERS} WHERE merchant_id = $1 AND uuid = $2`, [
      merchantId,
      uuid,
    ]);
    return rows.length > 0;
  }

  // Oldest first.
  async statusHistory(db: EntityManager, orderUuid: string): Promise<OrderStatusHistoryEntity[]> {
    return queryRows<OrderStatusHistoryEntity>(
      db,
      `SELECT ${HISTORY_COLUMNS} FROM ${ORDER_STATUS_HISTORY} WHERE order_uuid = $1 ORDER BY id ASC`,
      [orderUuid],
    );
  }

  // The hot path of order creation in ONE statement (one round trip, still all-or-nothing): the
  // KYC check against the local projection, the order, its first history row and its order.created
  // outbox row. Nothing is written when the user is not in the projection as APPROVED for this
  // merchant (eligible false) or the reference is taken (ON CONFLICT: eligible, not created).
  async insertCreatedIfEligible(
    db: EntityManager,
    order: OrderEntity,
    event: OutboxInsert,
  ): Promise<CreatedOrderAnswer> {
    const [row] = await queryRows<{ created: number; eligible: number }>(
      db,
      `WITH k AS (
         SELECT 1 FROM ${KYC_USERS} WHERE uuid = $3::uuid AND merchant_id = $2::uuid AND status = 'APPROVED'
       ), o AS (
         INSERT INTO ${ORDERS}
           (uuid, merchant_id, kyc_user_uuid, amount, currency, recipient_address, reference, iban, bic, status, created_at, updated_at, beneficiary_name)
         SELECT $1::uuid, $2::uuid, $3::uuid, $4::numeric, 'EUR', $5, $6, $7, $8, 'CREATED', $9::timestamptz, $9::timestamptz, $16
         FROM k
         ON CONFLICT DO NOTHING
         RETURNING uuid
       ), h AS (
         INSERT INTO ${ORDER_STATUS_HISTORY} (order_uuid, from_status, to_status, reason, event_id, at)
         SELECT uuid, NULL, 'CREATED', 'order created', NULL, $9::timestamptz FROM o
       ), e AS (
         INSERT INTO ${event.table} (${OUTBOX_COLUMNS})
         SELECT $10::uuid, $11, $12, $13::jsonb, $14::jsonb, $15::int FROM o
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
    return { created: row?.created === 1, eligible: (row?.eligible ?? 0) > 0 };
  }

  // insertCreatedIfEligible for several orders in one statement (one implicit transaction), each
  // answer in the order given. Each order is checked and inserted on its own terms: one whose KYC user
  // is not approved in the projection, or whose reference is taken, writes nothing and says so, and
  // the others are written. With its generic plan: planned for its arrays at every call otherwise.
  async insertCreatedIfEligibleMany(
    db: EntityManager,
    items: ReadonlyArray<{ order: OrderEntity; event: OutboxInsert }>,
  ): Promise<CreatedOrderAnswer[]> {
    const table = items[0]?.event.table;
    if (table === undefined) return [];
    if (items.some((i) => i.event.table !== table)) throw new Error('one outbox table per statement');
    const column = (pick: (item: { order: OrderEntity; event: OutboxInsert }) => unknown): unknown[] =>
      items.map(pick);
    const rows = await queryRows<{ n: string; created: boolean; eligible: boolean }>(
      genericPlan(db),
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::numeric[], $5::text[], $6::text[],
                              $7::text[], $8::text[], $9::timestamptz[], $10::text[], $11::uuid[], $12::text[],
                              $13::text[], $14::text[], $15::text[], $16::int[])
           WITH ORDINALITY AS i(order_uuid, order_merchant_id, order_kyc_user_uuid, order_amount,
                                order_recipient, order_reference, order_iban, order_bic, order_at,
                                order_beneficiary, event_id, event_topic, event_key, event_envelope,
                                event_headers, event_key_hash, n)
       ), k AS (
         SELECT i.* FROM input i
         WHERE EXISTS (SELECT 1 FROM ${KYC_USERS} u WHERE u.uuid = i.order_kyc_user_uuid
                         AND u.merchant_id = i.order_merchant_id AND u.status = 'APPROVED')
       ), o AS (
         INSERT INTO ${ORDERS}
           (uuid, merchant_id, kyc_user_uuid, amount, currency, recipient_address, reference, iban, bic, status, created_at, updated_at, beneficiary_name)
         SELECT order_uuid, order_merchant_id, order_kyc_user_uuid, order_amount, 'EUR', order_recipient,
                order_reference, order_iban, order_bic, 'CREATED', order_at, order_at, order_beneficiary
         FROM k ORDER BY n
         ON CONFLICT DO NOTHING
         RETURNING uuid
       ), h AS (
         INSERT INTO ${ORDER_STATUS_HISTORY} (order_uuid, from_status, to_status, reason, event_id, at)
         SELECT k.order_uuid, NULL, 'CREATED', 'order created', NULL, k.order_at
         FROM k JOIN o ON o.uuid = k.order_uuid ORDER BY k.n
       ), e AS (
         INSERT INTO ${table} (${OUTBOX_COLUMNS})
         SELECT k.event_id, k.event_topic, k.event_key, k.event_envelope::jsonb, k.event_headers::jsonb, k.event_key_hash
         FROM k JOIN o ON o.uuid = k.order_uuid ORDER BY k.n
       )
       SELECT i.n, EXISTS (SELECT 1 FROM o WHERE o.uuid = i.order_uuid) AS created,
              EXISTS (SELECT 1 FROM k WHERE k.n = i.n) AS eligible
       FROM input i`,
      [
        column((i) => i.order.uuid),
        column((i) => i.order.merchantId),
        column((i) => i.order.kycUserUuid),
        column((i) => i.order.amount),
        column((i) => i.order.recipientAddress),
        column((i) => i.order.reference),
        column((i) => i.order.iban),
        column((i) => i.order.bic),
        column((i) => i.order.createdAt),
        column((i) => i.order.beneficiaryName),
        ...[0, 1, 2, 3, 4, 5].map((c) => column((i) => i.event.values[c])),
      ],
    );
    const answers = items.map(() => ({ created: false, eligible: false }));
    for (const row of rows) answers[Number(row.n) - 1] = { created: row.created, eligible: row.eligible };
    return answers;
  }

  // ON CONFLICT DO NOTHING keeps the transaction usable: a taken reference answers false.
  async insertIfNew(db: EntityManager, order: OrderEntity): Promise<boolean> {
    const inserted = await queryRows(
      db,
      `INSERT INTO ${ORDERS}
         (uuid, merchant_id, kyc_user_uuid, amount, currency, recipient_address, reference, iban, bic,
          beneficiary_name, status, payed_amount, payer_account_holder_name, sent_token_amount,
          transaction_hash, fx_rate_base, fx_rate_effective, fx_rate_updated_at, failure_reason,
          created_at, updated_at, completed_at, failed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
       ON CONFLICT DO NOTHING RETURNING uuid`,
      [
        order.uuid,
        order.merchantId,
        order.kycUserUuid,
        order.amount,
        order.currency,
        order.recipientAddress,
        order.reference,
        order.iban,
        order.bic,
        order.beneficiaryName,
        order.status,
        order.payedAmount,
        order.payerAccountHolderName,
        order.sentTokenAmount,
        order.transactionHash,
        order.fxRateBase,
        order.fxRateEffective,
        order.fxRateUpdatedAt,
        order.failureReason,
        order.createdAt,
        order.updatedAt,
        order.completedAt,
        order.failedAt,
      ],
    );
    return inserted.length === 1;
  }

  async appendStatusChange(db: EntityManager, change: StatusChangeRow): Promise<void> {
    await db.query(
      `INSERT INTO ${ORDER_STATUS_HISTORY} (order_uuid, from_status, to_status, reason, event_id, at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [change.orderUuid, change.fromStatus, change.toStatus, change.reason, change.eventId, change.at],
    );
  }

  // The money arrived: recorded on an order still CREATED and this merchant's (it stays CREATED until
  // the tokens are sent). Answers the order's fixed facts if it was; the caller looks at the order
  // only when not.
  async recordPayment(
    db: EntityManager,
    order: { uuid: string; merchantId: string },
    payment: { payedAmount: string; payerAccountHolderName: string },
    at: Date,
  ): Promise<OrderFacts | undefined> {
    const [moved] = await queryRows<OrderFacts>(
      db,
      `UPDATE ${ORDERS} SET payed_amount = $3, payer_account_holder_name = $4, updated_at = $5
       WHERE uuid = $1 AND merchant_id = $2 AND status = 'CREATED'
       RETURNING ${FACT_COLUMNS}`,
      [order.uuid, order.merchantId, payment.payedAmount, payment.payerAccountHolderName, at],
    );
    return moved;
  }

  // recordPayment for several payments in one statement, each answer in the order given: the facts of
  // an order it updated, or undefined (not this merchant's, not CREATED, or a later payment of an order
  // named before in the same call). Only an order's first payment takes part (a row is updated once
  // per statement, by a join row Postgres picks): a later one answers undefined, and its handler then
  // applies it after the first, as one by one. With its generic plan (withGenericPlan): planned for
  // its arrays at every call otherwise.
  async recordPayments(
    db: EntityManager,
    payments: ReadonlyArray<{
      uuid: string;
      merchantId: string;
      payedAmount: string;
      payerAccountHolderName: string;
    }>,
    at: Date,
  ): Promise<Array<OrderFacts | undefined>> {
    const rows = await withGenericPlan(db, () =>
      queryRows<OrderFacts & { n: string }>(
        db,
        `WITH input AS (
           SELECT DISTINCT ON (order_uuid) * FROM unnest($1::uuid[], $2::uuid[], $3::numeric[], $4::text[])
             WITH ORDINALITY AS i(order_uuid, order_merchant_id, new_payed_amount, new_payer_name, n)
           ORDER BY order_uuid, n
         )
         UPDATE ${ORDERS} SET payed_amount = i.new_payed_amount, payer_account_holder_name = i.new_payer_name,
           updated_at = $5
         FROM input i
         WHERE uuid = i.order_uuid AND uuid = ANY($1::uuid[]) AND merchant_id = i.order_merchant_id AND status = 'CREATED'
         RETURNING i.n, ${FACT_COLUMNS}`,
        [
          payments.map((p) => p.uuid),
          payments.map((p) => p.merchantId),
          payments.map((p) => p.payedAmount),
          payments.map((p) => p.payerAccountHolderName),
          at,
        ],
      ),
    );
    const facts: Array<OrderFacts | undefined> = payments.map(() => undefined);
    for (const { n, ...row } of rows) facts[Number(n) - 1] = row;
    return facts;
  }

  // The move to COMPLETED, its history row and its order.completed outbox row in ONE statement (one
  // round trip, all or nothing); the history and the event are written only if the order moved. The
  // run's statement with one order (markCompletedMany).
  async markCompleted(
    db: EntityManager,
    uuid: string,
    facts: CompletionFacts,
    change: StatusChangeCause,
    event: OutboxInsert,
  ): Promise<boolean> {
    const [moved] = await this.markCompletedMany(db, [{ uuid, facts, change, event }]);
    return moved ?? false;
  }

  // markCompleted for several orders in one statement (a run of transfer.succeeded in one consumer
  // batch), each answer in the order given: whether its order moved (history row and event written),
  // or undefined for a later entry of an order named before in the same call, which its caller then
  // moves alone, as one by one. The events go into the outbox in the order given. With its generic plan
  // (withGenericPlan): planned for its arrays at every call otherwise.
  async markCompletedMany(
    db: EntityManager,
    moves: ReadonlyArray<{
      uuid: string;
      facts: CompletionFacts;
      change: StatusChangeCause;
      event: OutboxInsert;
    }>,
  ): Promise<Array<boolean | undefined>> {
    if (moves.length === 0) return [];
    const column = (i: number) => moves.map((m) => m.event.values[i]);
    const rows = await withGenericPlan(db, () =>
      queryRows<{ n: string; moved: boolean }>(
        db,
        `WITH input AS (
           SELECT DISTINCT ON (order_uuid) *
           FROM unnest($1::uuid[], $2::numeric[], $3::text[], $4::numeric[], $5::text[], $6::numeric[], $7::numeric[],
                       $8::timestamptz[], $9::text[], $10::uuid[], $11::timestamptz[],
                       $12::uuid[], $13::text[], $14::text[], $15::jsonb[], $16::jsonb[], $17::int[])
             WITH ORDINALITY AS i(order_uuid, new_payed_amount, new_payer_name, new_sent_amount, new_tx_hash,
                                  new_fx_base, new_fx_effective, new_fx_updated_at, cause, cause_event_id, moved_at,
                                  out_event_id, out_topic, out_key, out_envelope, out_headers, out_key_hash, n)
           ORDER BY order_uuid, n
         ), moved AS (
           UPDATE ${ORDERS} SET status = 'COMPLETED', payed_amount = i.new_payed_amount,
             payer_account_holder_name = i.new_payer_name, sent_token_amount = i.new_sent_amount,
             transaction_hash = i.new_tx_hash, fx_rate_base = i.new_fx_base, fx_rate_effective = i.new_fx_effective,
             fx_rate_updated_at = i.new_fx_updated_at, completed_at = i.moved_at, updated_at = i.moved_at
           FROM input i
           WHERE uuid = i.order_uuid AND uuid = ANY($1::uuid[]) AND status = 'CREATED'
           RETURNING i.n
         ), h AS (
           INSERT INTO ${ORDER_STATUS_HISTORY} (order_uuid, from_status, to_status, reason, event_id, at)
           SELECT i.order_uuid, 'CREATED', 'COMPLETED', i.cause, i.cause_event_id, i.moved_at
           FROM input i JOIN moved m ON m.n = i.n ORDER BY i.n
         ), e AS (
           INSERT INTO ${moves[0]!.event.table} (${OUTBOX_COLUMNS})
           SELECT i.out_event_id, i.out_topic, i.out_key, i.out_envelope, i.out_headers, i.out_key_hash
           FROM input i JOIN moved m ON m.n = i.n ORDER BY i.n
         )
         SELECT i.n, EXISTS (SELECT 1 FROM moved m WHERE m.n = i.n) AS moved FROM input i`,
        [
          moves.map((m) => m.uuid),
          moves.map((m) => m.facts.payedAmount),
          moves.map((m) => m.facts.payerAccountHolderName),
          moves.map((m) => m.facts.sentTokenAmount),
          moves.map((m) => m.facts.transactionHash),
          moves.map((m) => m.facts.fxRateBase),
          moves.map((m) => m.facts.fxRateEffective),
          moves.map((m) => m.facts.fxRateUpdatedAt),
          moves.map((m) => m.change.reason),
          moves.map((m) => m.change.eventId),
          moves.map((m) => m.change.at),
          column(0),
          column(1),
          column(2),
          column(3),
          column(4),
          column(5),
        ],
      ),
    );
    const answers: Array<boolean | undefined> = moves.map(() => undefined);
    for (const row of rows) answers[Number(row.n) - 1] = row.moved;
    return answers;
  }

  // A failed order sent nothing: 0 tokens. Same statement shape as markCompleted.
  async markFailed(
    db: EntityManager,
    uuid: string,
    facts: FailureChange,
    change: StatusChangeCause,
    event: OutboxInsert,
  ): Promise<boolean> {
    return this.moveWithEvent(
      db,
      `status = 'FAILED', payed_amount = $2, transaction_hash = $3, sent_token_amount = 0,
         failure_reason = $4, failed_at = $5, updated_at = $5`,
      'FAILED',
      [uuid, facts.payedAmount, facts.transactionHash, facts.failureReason, change.at],
      change,
      event,
    );
  }

  // `set` uses $1 (the uuid) .. $n of `params`, whose last one is the time of the change. The
  // move is conditional on CREATED, so a race cannot complete and fail one order.
  private async moveWithEvent(
    db: EntityManager,
    set: string,
    to: TerminalOrderStatus,
    params: unknown[],
    change: StatusChangeCause,
    event: OutboxInsert,
  ): Promise<boolean> {
    const n = params.length;
    const moved = await queryRows(
      db,
      `WITH moved AS (
         UPDATE ${ORDERS} SET ${set} WHERE uuid = $1 AND status = 'CREATED' RETURNING uuid
       ), h AS (
         INSERT INTO ${ORDER_STATUS_HISTORY} (order_uuid, from_status, to_status, reason, event_id, at)
         SELECT uuid, 'CREATED', '${to}', $${n + 1}, $${n + 2}::uuid, $${n}::timestamptz FROM moved
       ), e AS (
         INSERT INTO ${event.table} (${OUTBOX_COLUMNS})
         SELECT $${n + 3}::uuid, $${n + 4}, $${n + 5}, $${n + 6}::jsonb, $${n + 7}::jsonb, $${n + 8}::int FROM moved
       )
       SELECT uuid FROM moved`,
      [...params, change.reason, change.eventId, ...event.values],
    );
    return moved.length === 1;
  }
}
