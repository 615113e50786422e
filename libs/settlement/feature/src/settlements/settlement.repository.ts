import { DataSource, EntityManager } from 'typeorm';

import { genericPlan, queryRows, withGenericPlan } from '@onramp/persistence';
import { FxQuote, retryDelayMs, SettlementState } from '@onramp/settlement-domain';

import { SETTLEMENT_SCHEMA } from '../config';
import { FX_QUOTE_COLUMNS, FX_QUOTES, FxQuoteRow, fxQuoteValues } from '../fx/fx-quotes.repository';
import type { ReversalOutcome } from '../payments/payment-reversals.repository';

import { LEASES } from '../signers/signer-leases.repository';
import { SettlementTransactionEntity } from './settlement-transaction.entity';
import { transactionColumns } from './settlement-transaction.repository';
import { SettlementEntity } from './settlement.entity';
import { SignerEntity } from './signer.entity';

// The tables, schema-qualified through SETTLEMENT_SCHEMA.
const SETTLEMENTS = `"${SETTLEMENT_SCHEMA}"."settlements"`;
const SIGNERS = `"${SETTLEMENT_SCHEMA}"."signers"`;
const SIGNED_TOTALS = `"${SETTLEMENT_SCHEMA}"."signed_totals"`;
const REVERSALS = `"${SETTLEMENT_SCHEMA}"."payment_reversals"`;
const TRANSACTIONS = `"${SETTLEMENT_SCHEMA}"."settlement_transactions"`;

// A settlement row as the entity (NUMERIC and BIGINT as strings).
const COLUMNS = `s.order_uuid AS "orderUuid", s.merchant_id AS "merchantId", s.bank_transaction_id AS "bankTransactionId",
  s.reference, s.recipient_address AS "recipientAddress", s.payed_amount AS "payedAmount",
  s.payer_account_holder_name AS "payerAccountHolderName", s.fx_rate_base AS "fxRateBase",
  s.fx_rate_effective AS "fxRateEffective", s.fx_rate_updated_at AS "fxRateUpdatedAt", s.token_amount AS "tokenAmount",
  s.token_base_units AS "tokenBaseUnits", s.state, s.traceparent, s.signer_address AS "signerAddress", s.nonce,
  s.raw_tx AS "rawTx", s.tx_hash AS "txHash", s.block_number AS "blockNumber", s.last_error AS "lastError",
  s.attempts, s.next_attempt_at AS "nextAttemptAt", s.signed_at AS "signedAt", s.released_by AS "releasedBy",
  s.broadcast_at AS "broadcastAt", s.created_at AS "createdAt", s.updated_at AS "updatedAt"`;

// A settlement transaction's columns beside a settlement's, as SettlementTransactionEntity under `tx.`.
const TRANSACTION_COLUMNS = transactionColumns('t', 'tx.');

// The next due settlement in one of `states` that no other worker holds. The row stays locked
// until the caller's transaction ends; SKIP LOCKED lets several workers share the table. With
// `signerAddress`, only that signer's settlements (the in-flight steps drive the leased signer's).
export async function lockNextDue(
  manager: EntityManager,
  states: SettlementState[],
  skip: ReadonlySet<string>,
  orderBy: 'created' | 'nonce',
  signerAddress?: string,
): Promise<SettlementEntity | null> {
  return (await lockDue(manager, states, skip, orderBy, 1, signerAddress))[0] ?? null;
}

// Up to `limit` due settlements, locked as lockNextDue locks one.
export async function lockDue(
  manager: EntityManager,
  states: SettlementState[],
  skip: ReadonlySet<string>,
  orderBy: 'created' | 'nonce',
  limit: number,
  signerAddress?: string,
): Promise<SettlementEntity[]> {
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  // state IN (...) spelled out, as the partial index settlements_to_drive is defined
  const where = [`s.state IN (${states.map(param).join(', ')})`, `s.next_attempt_at <= now()`];
  if (signerAddress !== undefined) where.push(`s.signer_address = ${param(signerAddress)}`);
  if (skip.size > 0) where.push(`NOT (s.order_uuid = ANY(${param([...skip])}))`);
  const order = orderBy === 'nonce' ? `s.nonce ASC NULLS LAST, s.created_at ASC` : `s.created_at ASC`;
  return queryRows<SettlementEntity>(
    manager,
    `SELECT ${COLUMNS} FROM ${SETTLEMENTS} s WHERE ${where.join(' AND ')}
     ORDER BY ${order} LIMIT ${param(limit)} FOR UPDATE SKIP LOCKED`,
    params,
  );
}

// The in-flight settlements of `signerAddress` due for a look (SIGNED, BROADCAST) in nonce order,
// locked (SKIP LOCKED) as lockDue does, each with its transactions oldest first (the last is the
// current one), as transactionsOfMany gives them: both in one round trip. Through the partial index
// settlements_in_flight alone, with its generic plan (no sequential scan): it runs at every pass of
// the worker, and a plan kept from a new deployment's handful of rows read the whole table after
// (in-flight-plan-at-scale.int-spec.ts).
export async function lockInFlightWithTransactions(
  manager: EntityManager,
  signerAddress: string,
  limit: number,
): Promise<{ rows: SettlementEntity[]; txsOf: Map<string, SettlementTransactionEntity[]> }> {
  const found = await withGenericPlan(manager, () =>
    queryRows<Record<string, unknown>>(
      manager,
      `WITH due AS (
       SELECT ${COLUMNS} FROM ${SETTLEMENTS} s
       WHERE s.state IN ('SIGNED', 'BROADCAST') AND s.next_attempt_at <= now() AND s.signer_address = $1
       ORDER BY s.nonce ASC NULLS LAST, s.created_at ASC LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     SELECT due.*, ${TRANSACTION_COLUMNS}
     FROM due LEFT JOIN ${TRANSACTIONS} t ON t.order_uuid = due."orderUuid"
     ORDER BY due.nonce ASC NULLS LAST, due."createdAt" ASC, t.id ASC`,
      [signerAddress, limit],
    ),
  );
  const rows: SettlementEntity[] = [];
  const txsOf = new Map<string, SettlementTransactionEntity[]>();
  for (const row of found) {
    const settlement: Record<string, unknown> = {};
    const tx: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      if (key.startsWith('tx.')) tx[key.slice(3)] = value;
      else settlement[key] = value;
    }
    const orderUuid = settlement['orderUuid'] as string;
    let txs = txsOf.get(orderUuid);
    if (!txs) {
      rows.push(settlement as unknown as SettlementEntity);
      txs = [];
      txsOf.set(orderUuid, txs);
    }
    if (tx['txHash'] !== null) txs.push(tx as unknown as SettlementTransactionEntity);
  }
  for (const [orderUuid, txs] of txsOf) if (txs.length === 0) txsOf.delete(orderUuid);
  return { rows, txsOf };
}

// The start of a signing batch in one statement: the settlements due (PENDING, HELD) oldest first,
// locked (SKIP LOCKED), and with them the next nonce of the signer's row, locked FOR UPDATE (the
// nonce counter, as lockSigner). None unless `lease.holder` still holds the signer's lease by the
// database's clock; that lease row stays share-locked until the transaction ends (as holdsLease),
// so a take-over waits for this signing to commit. `nextNonce` undefined: nothing due, or a signer
// never used yet, whose row lockSigner creates.
export async function lockDueToSign(
  manager: EntityManager,
  lease: { signerAddress: string; holder: string },
  skip: ReadonlySet<string>,
  limit: number,
): Promise<{ due: SettlementEntity[]; nextNonce?: string }> {
  const rows = await queryRows<SettlementEntity & { signerNextNonce: string | null }>(
    manager,
    `WITH lease AS (
       SELECT 1 FROM ${LEASES} WHERE signer_address = $1 AND holder = $2 AND expires_at > clock_timestamp()
       FOR SHARE
     ), signer AS (
       SELECT next_nonce FROM ${SIGNERS} WHERE address = $1 FOR UPDATE
     )
     SELECT ${COLUMNS}, (SELECT next_nonce::text FROM signer) AS "signerNextNonce"
     FROM ${SETTLEMENTS} s
     WHERE s.state IN ('PENDING', 'HELD') AND s.next_attempt_at <= now() AND EXISTS (SELECT 1 FROM lease)
       AND NOT (s.order_uuid = ANY($3::uuid[]))
     ORDER BY s.created_at ASC LIMIT $4 FOR UPDATE OF s SKIP LOCKED`,
    [lease.signerAddress, lease.holder, [...skip], limit],
  );
  const nextNonce = rows[0]?.signerNextNonce ?? undefined;
  const due = rows.map(({ signerNextNonce: _, ...s }) => s as SettlementEntity);
  return { due, nextNonce };
}

// Keeps the settlement where it is and tries again later, saying why (for operators and alerts).
export async function deferSettlement(
  manager: EntityManager,
  settlement: Pick<SettlementEntity, 'orderUuid' | 'attempts'>,
  reason: string,
  baseDelayMs: number,
): Promise<void> {
  const delay = retryDelayMs(settlement.attempts, baseDelayMs);
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET last_error = $2, attempts = $3, next_attempt_at = $4, updated_at = $5
     WHERE order_uuid = $1`,
    [settlement.orderUuid, reason, settlement.attempts + 1, new Date(Date.now() + delay), new Date()],
  );
}

// After a step's transaction rolled back (an RPC or database error), in a transaction of its own.
export async function recordStepFailure(
  dataSource: DataSource,
  orderUuid: string,
  reason: string,
  baseDelayMs: number,
): Promise<void> {
  await dataSource.transaction(async (manager) => {
    const [row] = await queryRows<Pick<SettlementEntity, 'orderUuid' | 'attempts'>>(
      manager,
      `SELECT order_uuid AS "orderUuid", attempts FROM ${SETTLEMENTS} WHERE order_uuid = $1 FOR UPDATE`,
      [orderUuid],
    );
    if (row) await deferSettlement(manager, row, reason, baseDelayMs);
  });
}

// Locks the hot wallet's nonce counter, creating it on first use from the chain's pending nonce.
// Every signing worker queues on this row lock, so no two transactions ever get the same nonce.
export async function lockSigner(
  manager: EntityManager,
  address: string,
  chainId: number,
  chainPendingNonce: () => Promise<bigint>,
): Promise<SignerEntity> {
  const lock = async (): Promise<SignerEntity | undefined> =>
    (
      await queryRows<SignerEntity>(
        manager,
        `SELECT address, chain_id AS "chainId", next_nonce AS "nextNonce", created_at AS "createdAt",
           updated_at AS "updatedAt"
         FROM ${SIGNERS} WHERE address = $1 FOR UPDATE`,
        [address],
      )
    )[0];
  const existing = await lock();
  if (existing) return existing;
  const start = await chainPendingNonce();
  await manager.query(
    `INSERT INTO ${SIGNERS} (address, chain_id, next_nonce) VALUES ($1, $2, $3) ON CONFLICT (address) DO NOTHING`,
    [address, chainId, start.toString()],
  );
  const created = await lock();
  if (!created) throw new Error(`signer ${address} vanished while being created`);
  return created;
}

// What this wallet has committed, in one read: the tokens (base units) and transactions signed but
// not yet final (the balance must cover them too before another transfer is signed), and the tokens
// signed for in the last `windowMs` (payouts that may still land or have landed; a transfer that
// reverted on chain counts too: the cap limits what we sign). The window is read from the totals per
// minute (storeSigned adds to them), whole minutes: the minute `windowMs` ago counts entirely, so a
// payout leaves the window up to a minute late, never early. The in-flight part reads only the
// signer's transactions in flight (the partial index settlements_in_flight, with the generic plan as
// lockInFlightWithTransactions): neither part grows with the day's payouts or the PENDING backlog.
export async function walletCommitments(
  manager: EntityManager,
  signerAddress: string,
  windowMs: number,
): Promise<{ inFlight: { baseUnits: bigint; count: bigint }; signedInWindow: bigint }> {
  const [row] = await withGenericPlan(manager, () =>
    queryRows<{ units: string; n: string; window: string }>(
      manager,
      `SELECT open.units, open.n,
       (SELECT COALESCE(SUM(base_units), 0)::text FROM ${SIGNED_TOTALS}
        WHERE signer_address = $1 AND minute >= date_trunc('minute', now() - ($2::int * interval '1 millisecond')))
         AS window
     FROM (SELECT COALESCE(SUM(token_base_units), 0)::text AS units, COUNT(*)::text AS n FROM ${SETTLEMENTS}
           WHERE state IN ('SIGNED', 'BROADCAST') AND signer_address = $1) AS open`,
      [signerAddress, windowMs],
    ),
  );
  return {
    inFlight: { baseUnits: BigInt(row?.units ?? 0), count: BigInt(row?.n ?? 0) },
    signedInWindow: BigInt(row?.window ?? 0),
  };
}

// PENDING -> HELD (or HELD stays HELD), unsigned: no nonce is taken. Looked at again after
// `recheckMs`: the rolling window may have room by then.
export async function holdSettlement(
  manager: EntityManager,
  settlement: Pick<SettlementEntity, 'orderUuid'>,
  reason: string,
  recheckMs: number,
): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET state = 'HELD', last_error = $2, next_attempt_at = $3, updated_at = $4
     WHERE order_uuid = $1 AND state IN ('PENDING', 'HELD')`,
    [settlement.orderUuid, reason, new Date(Date.now() + recheckMs), new Date()],
  );
}

export interface NewSettlement {
  orderUuid: string;
  merchantId: string;
  bankTransactionId: string;
  reference: string;
  recipientAddress: string; // checksummed
  payedAmount: string;
  payerAccountHolderName: string; // sealed under the payer-data ring, passed on as it came
  quote: FxQuote | undefined; // undefined: stored unpriced, the worker prices it once a rate is fresh
  traceparent: string | null;
}

// What inserting a settlement found: the order's reversal if its payment was reversed (nothing
// inserted), and whether this call created the settlement.
export interface PendingInsertOutcome {
  reversal?: { outcome: ReversalOutcome; reason: string };
  inserted: boolean;
}

// One PENDING settlement per order, unless the order's payment was reversed: the order uuid is the
// primary key, so a second insert for the same order inserts nothing. With `fxAudit`, the quote's
// audit row is written too, only if the settlement was. One statement (call it under
// lockOrderPayment, in a statement of its own before this one, so this one's snapshot sees any
// reversal committed while the lock was awaited). Answers the reversal found, if any, and whether
// this call created the settlement.
export async function insertPendingUnlessReversed(
  manager: EntityManager,
  s: NewSettlement,
  fxAudit: FxQuoteRow | undefined,
): Promise<PendingInsertOutcome> {
  const [outcome] = await insertManyPendingUnlessReversed(manager, [{ settlement: s, fxAudit }]);
  return outcome ?? { inserted: false };
}

// insertPendingUnlessReversed for several orders in one statement (a run of payment.confirmed in one
// consumer batch), under each order's lock, each answer in the order given. Only an order's first
// entry takes part: a later one answers undefined, and its caller then inserts it alone (finding the
// first one's settlement, or its reversal), as one by one. With its generic plan (withGenericPlan):
// planned for its arrays at every call otherwise.
export async function insertManyPendingUnlessReversed(
  manager: EntityManager,
  entries: ReadonlyArray<{ settlement: NewSettlement; fxAudit: FxQuoteRow | undefined }>,
): Promise<Array<PendingInsertOutcome | undefined>> {
  const column = <T>(of: (s: NewSettlement) => T) => entries.map((e) => of(e.settlement));
  const audits = entries.map((e) => (e.fxAudit ? fxQuoteValues(e.fxAudit) : undefined));
  const audit = (i: number) => audits.map((values) => values?.[i] ?? null);
  const rows = await withGenericPlan(manager, () =>
    queryRows<{ n: string; outcome: ReversalOutcome | null; reason: string | null; inserted: boolean }>(
      manager,
      `WITH input AS (
         SELECT DISTINCT ON (order_uuid) *
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::numeric[], $7::text[],
                     $8::numeric[], $9::numeric[], $10::timestamptz[], $11::numeric[], $12::numeric[], $13::text[],
                     $14::uuid[], $15::text[], $16::numeric[], $17::numeric[], $18::numeric[], $19::timestamptz[],
                     $20::numeric[], $21::numeric[])
           WITH ORDINALITY AS i(order_uuid, merchant_id, bank_transaction_id, reference, recipient_address, payed_amount,
                                payer_account_holder_name, fx_rate_base, fx_rate_effective, fx_rate_updated_at,
                                token_amount, token_base_units, traceparent, audit_order_uuid, audit_source,
                                audit_fx_rate_base, audit_fee, audit_fx_rate_effective, audit_rate_updated_at,
                                audit_payed_amount, audit_token_amount, n)
         ORDER BY order_uuid, n
       ), reversal AS (
         SELECT i.n, r.outcome, r.reason FROM input i JOIN ${REVERSALS} r ON r.order_uuid = i.order_uuid
           AND r.order_uuid = ANY($1::uuid[])
       ), inserted AS (
         INSERT INTO ${SETTLEMENTS}
           (order_uuid, merchant_id, bank_transaction_id, reference, recipient_address, payed_amount, payer_account_holder_name,
            fx_rate_base, fx_rate_effective, fx_rate_updated_at, token_amount, token_base_units, state, traceparent)
         SELECT order_uuid, merchant_id, bank_transaction_id, reference, recipient_address, payed_amount,
                payer_account_holder_name, fx_rate_base, fx_rate_effective, fx_rate_updated_at, token_amount,
                token_base_units, 'PENDING', traceparent
         FROM input i WHERE NOT EXISTS (SELECT 1 FROM reversal v WHERE v.n = i.n)
         ORDER BY n
         ON CONFLICT (order_uuid) DO NOTHING
         RETURNING order_uuid
       ), audited AS (
         INSERT INTO ${FX_QUOTES} (${FX_QUOTE_COLUMNS})
         SELECT audit_order_uuid, audit_source, audit_fx_rate_base, audit_fee, audit_fx_rate_effective,
                audit_rate_updated_at, audit_payed_amount, audit_token_amount
         FROM input i JOIN inserted x ON x.order_uuid = i.order_uuid WHERE i.audit_order_uuid IS NOT NULL
       )
       SELECT i.n, v.outcome, v.reason, EXISTS (SELECT 1 FROM inserted x WHERE x.order_uuid = i.order_uuid) AS inserted
       FROM input i LEFT JOIN reversal v ON v.n = i.n`,
      [
        column((s) => s.orderUuid),
        column((s) => s.merchantId),
        column((s) => s.bankTransactionId),
        column((s) => s.reference),
        column((s) => s.recipientAddress),
        column((s) => s.payedAmount),
        column((s) => s.payerAccountHolderName),
        column((s) => s.quote?.fxRateBase ?? null),
        column((s) => s.quote?.fxRateEffective ?? null),
        column((s) => s.quote?.fxRateUpdatedAt ?? null),
        column((s) => s.quote?.sentTokenAmount ?? null),
        column((s) => s.quote?.baseUnits.toString() ?? null),
        column((s) => s.traceparent),
        ...Array.from({ length: 8 }, (_, i) => audit(i)),
      ],
    ),
  );
  const outcomes: Array<PendingInsertOutcome | undefined> = entries.map(() => undefined);
  for (const row of rows) {
    outcomes[Number(row.n) - 1] = {
      reversal: row.outcome ? { outcome: row.outcome, reason: row.reason ?? '' } : undefined,
      inserted: row.inserted,
    };
  }
  return outcomes;
}

// The order's settlement state, its row locked until the transaction ends (waiting, not skipping:
// the signing worker holds the lock from picking a row until its signature is committed).
export async function lockSettlementState(
  manager: EntityManager,
  orderUuid: string,
): Promise<SettlementState | undefined> {
  const rows: { state: SettlementState }[] = await manager.query(
    `SELECT state FROM ${SETTLEMENTS} WHERE order_uuid = $1 FOR UPDATE`,
    [orderUuid],
  );
  return rows[0]?.state;
}

// PENDING or HELD (nothing signed, no nonce taken) -> CANCELLED.
export async function cancelUnsignedSettlement(
  manager: EntityManager,
  orderUuid: string,
  reason: string,
): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET state = 'CANCELLED', last_error = $2, updated_at = $3
     WHERE order_uuid = $1 AND state IN ('PENDING', 'HELD')`,
    [orderUuid, reason, new Date()],
  );
}

export interface HeldSettlementRow {
  orderUuid: string;
  merchantId: string;
  recipientAddress: string;
  tokenAmount: string | null; // USDC, a decimal string
  reason: string | null;
  heldSince: Date;
}

// A page of the HELD settlements, oldest first, and how many there are.
export async function listHeldSettlements(
  dataSource: DataSource,
  page: { limit: number; offset: number },
): Promise<{ rows: HeldSettlementRow[]; total: number }> {
  const [counted] = await dataSource.query<Array<{ total: string }>>(
    `SELECT count(*)::text AS total FROM ${SETTLEMENTS} WHERE state = 'HELD'`,
  );
  const rows = await dataSource.query<
    Array<{
      order_uuid: string;
      merchant_id: string;
      recipient_address: string;
      token_amount: string | null;
      last_error: string | null;
      updated_at: Date;
    }>
  >(
    `SELECT order_uuid, merchant_id, recipient_address, token_amount::text, last_error, updated_at
     FROM ${SETTLEMENTS} WHERE state = 'HELD'
     ORDER BY created_at, order_uuid LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  return {
    total: Number(counted?.total ?? 0),
    rows: rows.map((r) => ({
      orderUuid: r.order_uuid,
      merchantId: r.merchant_id,
      recipientAddress: r.recipient_address,
      tokenAmount: r.token_amount,
      reason: r.last_error,
      heldSince: r.updated_at,
    })),
  };
}

// The settlement's state, hold reason and amount, its row locked as lockSettlementState locks it.
export async function lockSettlementForRelease(
  manager: EntityManager,
  orderUuid: string,
): Promise<{ state: SettlementState; reason: string | null; tokenAmount: string | null } | undefined> {
  const rows: Array<{ state: SettlementState; last_error: string | null; token_amount: string | null }> =
    await manager.query(
      `SELECT state, last_error, token_amount::text FROM ${SETTLEMENTS}
       WHERE order_uuid = $1 FOR UPDATE`,
      [orderUuid],
    );
  const row = rows[0];
  return row && { state: row.state, reason: row.last_error, tokenAmount: row.token_amount };
}

// HELD -> PENDING with released_by set: the next signing pass signs it whatever the caps say.
export async function releaseHeldSettlement(
  manager: EntityManager,
  orderUuid: string,
  operator: string,
): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET state = 'PENDING', released_by = $2, last_error = $3, next_attempt_at = $4,
       updated_at = $5
     WHERE order_uuid = $1 AND state = 'HELD'`,
    [orderUuid, operator, `released past the payout caps by ${operator}`, new Date(), new Date()],
  );
}

// The worker's transitions of one settlement, each in the caller's transaction (the one that holds
// the row lock from lockDue / lockNextDue, so the row and its event or stored bytes commit together).

// Priced now (the rate was stale when the payment was confirmed).
export async function recordQuote(
  manager: EntityManager,
  orderUuid: string,
  quote: Pick<
    SettlementEntity,
    'fxRateBase' | 'fxRateEffective' | 'fxRateUpdatedAt' | 'tokenAmount' | 'tokenBaseUnits'
  >,
): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET fx_rate_base = $2, fx_rate_effective = $3, fx_rate_updated_at = $4,
       token_amount = $5, token_base_units = $6, updated_at = $7
     WHERE order_uuid = $1`,
    [
      orderUuid,
      quote.fxRateBase,
      quote.fxRateEffective,
      quote.fxRateUpdatedAt,
      quote.tokenAmount,
      quote.tokenBaseUnits,
      new Date(),
    ],
  );
}

// HELD -> PENDING: within the caps now, only funds are missing (attempts and times untouched).
export async function returnHeldToPending(manager: EntityManager, orderUuid: string): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET state = 'PENDING' WHERE order_uuid = $1 AND state = 'HELD'`,
    [orderUuid],
  );
}

// PENDING or HELD -> FAILED before anything was signed (no nonce, no transaction).
export async function failUnsignedSettlement(
  manager: EntityManager,
  orderUuid: string,
  reason: string,
): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET state = 'FAILED', last_error = $2, updated_at = $3
     WHERE order_uuid = $1 AND state IN ('PENDING', 'HELD')`,
    [orderUuid, reason, new Date()],
  );
}

// A successor of the current transaction (same nonce) is stored: it is the current one now, due
// for sending.
export async function replaceCurrentTransaction(
  manager: EntityManager,
  orderUuid: string,
  signed: { rawTx: string; txHash: string },
): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET raw_tx = $2, tx_hash = $3, next_attempt_at = $4, updated_at = $5
     WHERE order_uuid = $1 AND state IN ('SIGNED', 'BROADCAST')`,
    [orderUuid, signed.rawTx, signed.txHash, new Date(), new Date()],
  );
}

// Mined, not final yet: the block is recorded and the settlement waits.
export async function recordMined(
  manager: EntityManager,
  orderUuid: string,
  state: SettlementState,
  mined: { txHash: string; rawTx: string; blockNumber: number },
): Promise<void> {
  await manager.query(
    `UPDATE ${SETTLEMENTS} SET state = $2, tx_hash = $3, raw_tx = $4, block_number = $5, updated_at = $6
     WHERE order_uuid = $1`,
    [orderUuid, state, mined.txHash, mined.rawTx, String(mined.blockNumber), new Date()],
  );
}

// What the metrics report of the settlements, read on each scrape, side by side. Each count reads only
// the rows it counts, through a partial index of them: the open ones (settlements_to_drive) and those
// that ended unpaid (settlements_unpaid). Counted by state over the whole table, a scrape had read
// every payout ever confirmed (180-200 ms at 1,000,000 settlements, on every replica at every
// scrape). The CONFIRMED ones, the bulk, are countConfirmed's, counted less often (RecountedTotal).
// With their generic plans, sequential scans off: the two with a parameter are named statements, and
// a generic plan Postgres settles on while a new deployment has a handful of settlements would be
// kept, reading the whole table once it has grown, until the next ANALYZE.
export interface SettlementGauges {
  byState: Array<{ state: string; n: number }>; // every state but CONFIRMED (countConfirmed)
  underfunded: number; // PENDING, held by an empty hot wallet (last_error starts with the prefix)
  refused: number; // FAILED before signing by recipient screening (last_error starts with the prefix)
  oldestOpenAgeSeconds: number | null; // null: none open
}

const OPEN_STATES = `('PENDING', 'HELD', 'SIGNED', 'BROADCAST')`; // as settlements_to_drive is defined
const UNPAID_STATES = `('FAILED', 'CANCELLED')`; // as settlements_unpaid is defined

export async function readSettlementGauges(
  manager: EntityManager,
  prefixes: { underfunded: string; refused: string },
): Promise<SettlementGauges> {
  const db = genericPlan(manager);
  const [byState, [held], [open], [screening]] = await Promise.all([
    queryRows<{ state: string; n: number }>(
      db,
      `SELECT state, count(*)::int AS n FROM ${SETTLEMENTS} WHERE state IN ${OPEN_STATES} GROUP BY state
       UNION ALL
       SELECT state, count(*)::int AS n FROM ${SETTLEMENTS} WHERE state IN ${UNPAID_STATES} GROUP BY state`,
    ),
    queryRows<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM ${SETTLEMENTS} WHERE state = 'PENDING' AND starts_with(last_error, $1)`,
      [prefixes.underfunded],
    ),
    queryRows<{ age: number | null }>(
      db,
      `SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM ${SETTLEMENTS}
       WHERE state IN ${OPEN_STATES}`,
    ),
    queryRows<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM ${SETTLEMENTS} WHERE state = 'FAILED' AND starts_with(last_error, $1)`,
      [prefixes.refused],
    ),
  ]);
  return {
    byState,
    underfunded: held?.n ?? 0,
    refused: screening?.n ?? 0,
    oldestOpenAgeSeconds: open?.age ?? null,
  };
}

// The CONFIRMED settlements: every payout ever made, so a read of most of the table; the metrics
// count them again only now and then (RecountedTotal).
export async function countConfirmed(manager: EntityManager): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    manager,
    `SELECT count(*)::int AS n FROM ${SETTLEMENTS} WHERE state = 'CONFIRMED'`,
  );
  return row?.n ?? 0;
}
