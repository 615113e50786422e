import { EntityManager } from 'typeorm';

import { withGenericPlan, writeWithNextStatement } from '@onramp/persistence';
import { FeeParams } from '@onramp/settlement-domain';
import { OUTBOX_COLUMNS, OutboxRowValues } from '@onramp/messaging';

import { SETTLEMENT_SCHEMA } from '../config';

// The worker's transitions of many settlements at once, each one statement for the whole batch
// (one round trip instead of one or two per settlement), in the caller's transaction: the one that
// holds the rows' locks from lockDue, so the rows, their stored bytes and their events commit
// together. Each answers how many settlements it moved and throws if that is not all of them
// (they are locked, so it cannot happen without a bug; the batch then rolls back whole).

const SETTLEMENTS = `"${SETTLEMENT_SCHEMA}"."settlements"`;
const TRANSACTIONS = `"${SETTLEMENT_SCHEMA}"."settlement_transactions"`;
const SIGNERS = `"${SETTLEMENT_SCHEMA}"."signers"`;
const SIGNED_TOTALS = `"${SETTLEMENT_SCHEMA}"."signed_totals"`;

export interface SignedRow {
  orderUuid: string;
  from: 'PENDING' | 'HELD'; // HELD when released (the window has room, or an operator)
  nonce: bigint;
  rawTx: string;
  txHash: string;
}

// `from` -> SIGNED for every row, each with its transaction stored: the bytes that may reach a node
// are on record in the same statement that marks the settlement signed, due for sending now. The
// signer's counter moves on to `nextNonce` in the same statement (the caller holds its row lock), and
// the amounts signed are added to the signer's total of the minute (signed_totals, read by the rolling
// payout cap: walletCommitments); totals no window reads any more are dropped. With its generic plan:
// over the batch's arrays Postgres planned it again at every pass (0.5 ms a pass in P2, about as much
// as its execution), and every row it touches is found by its key.
export async function storeSigned(
  manager: EntityManager,
  signer: { address: string; nextNonce: bigint },
  fees: FeeParams,
  rows: SignedRow[],
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const [maxFee, priority, gasPrice] =
    'gasPrice' in fees
      ? [null, null, fees.gasPrice.toString()]
      : [fees.maxFeePerGas.toString(), fees.maxPriorityFeePerGas.toString(), null];
  await withGenericPlan(manager, () =>
    writeWithNextStatement(
      manager,
      `WITH u AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::text[])
         AS u(order_uuid, from_state, nonce, raw_tx, tx_hash)
     ), stored AS (
       INSERT INTO ${TRANSACTIONS}
         (tx_hash, order_uuid, signer_address, nonce, raw_tx, max_fee_per_gas, max_priority_fee_per_gas, gas_price)
       SELECT tx_hash, order_uuid, $6, nonce, raw_tx, $7::numeric, $8::numeric, $9::numeric FROM u
     ), advanced AS (
       UPDATE ${SIGNERS} SET next_nonce = $11, updated_at = $10 WHERE address = $6
     ), moved AS (
       UPDATE ${SETTLEMENTS} s SET state = 'SIGNED', signer_address = $6, nonce = u.nonce, raw_tx = u.raw_tx,
         tx_hash = u.tx_hash, last_error = NULL, attempts = 0, next_attempt_at = $10, signed_at = $10, updated_at = $10
       FROM u WHERE s.order_uuid = u.order_uuid AND s.order_uuid = ANY($1::uuid[]) AND s.state = u.from_state
       RETURNING s.order_uuid, s.token_base_units
     ), counted AS (
       INSERT INTO ${SIGNED_TOTALS} AS t (signer_address, minute, base_units)
       SELECT $6, date_trunc('minute', $10::timestamptz), SUM(token_base_units) FROM moved HAVING count(*) > 0
       ON CONFLICT (signer_address, minute) DO UPDATE SET base_units = t.base_units + EXCLUDED.base_units
     ), expired AS (
       DELETE FROM ${SIGNED_TOTALS} WHERE signer_address = $6 AND minute < $10::timestamptz - interval '25 hours'
     )
     ${allMoved('moved', '$12', 'signed')}`,
      [
        rows.map((r) => r.orderUuid),
        rows.map((r) => r.from),
        rows.map((r) => r.nonce.toString()),
        rows.map((r) => r.rawTx),
        rows.map((r) => r.txHash),
        signer.address,
        maxFee,
        priority,
        gasPrice,
        at,
        signer.nextNonce.toString(),
        rows.length,
      ],
    ),
  );
}

// A node took each settlement's current transaction: the transaction is marked sent (the first
// time only) and the settlement BROADCAST (from SIGNED, or BROADCAST again after a rebroadcast).
// The stuck clock starts at $3, taken here after the node answered and on the clock `isStuck` reads:
// Postgres' now() is the start of the pass's transaction, before its receipt lookups and sends, which
// with several signer processes on a busy machine came seconds earlier.
export async function markSentAndBroadcast(
  manager: EntityManager,
  sent: { orderUuid: string; txHash: string }[],
): Promise<void> {
  if (sent.length === 0) return;
  // generic plan: as storeSigned's, planned at every pass otherwise (0.34 ms a pass in P2)
  await withGenericPlan(manager, () =>
    writeWithNextStatement(
      manager,
      `WITH marked AS (
       UPDATE ${TRANSACTIONS} SET first_sent_at = COALESCE(first_sent_at, $3) WHERE tx_hash = ANY($2::text[])
     ), moved AS (
       UPDATE ${SETTLEMENTS} SET state = 'BROADCAST', broadcast_at = $3, last_error = NULL, attempts = 0,
         updated_at = $3
       WHERE order_uuid = ANY($1::uuid[]) AND state IN ('SIGNED', 'BROADCAST')
       RETURNING order_uuid
     )
     ${allMoved('moved', '$4', 'marked broadcast')}`,
      [sent.map((s) => s.orderUuid), sent.map((s) => s.txHash), new Date(), sent.length],
    ),
  );
}

export interface OutcomeRow {
  orderUuid: string;
  outcome: 'CONFIRMED' | 'FAILED';
  txHash: string; // the transaction that was mined
  rawTx: string;
  blockNumber: number;
  lastError: string | null;
  // its transfer.* event's outbox row, OUTBOX_COLUMNS' values (OutboxWriter.prepare)
  event: OutboxRowValues;
}

// SIGNED or BROADCAST -> CONFIRMED | FAILED for every row, with the mined transaction, and each
// settlement's transfer.* event in `outboxTable`, written only for a row this statement moved.
export async function recordOutcomes(
  manager: EntityManager,
  outboxTable: string,
  rows: OutcomeRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const col = (i: number): string[] => rows.map((r) => r.event[i]);
  await writeWithNextStatement(
    manager,
    `WITH u AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[])
         AS u(order_uuid, outcome, tx_hash, raw_tx, block_number, last_error)
     ), moved AS (
       UPDATE ${SETTLEMENTS} s SET state = u.outcome, tx_hash = u.tx_hash, raw_tx = u.raw_tx,
         block_number = u.block_number, last_error = u.last_error, updated_at = $7
       FROM u WHERE s.order_uuid = u.order_uuid AND s.state IN ('SIGNED', 'BROADCAST')
       RETURNING s.order_uuid
     ), written AS (
       INSERT INTO ${outboxTable} (${OUTBOX_COLUMNS})
       SELECT e.event_id, e.topic, e.key, e.envelope, e.headers, e.key_hash
       FROM unnest($8::uuid[], $9::text[], $10::text[], $11::jsonb[], $12::jsonb[], $14::int[], $1::uuid[])
         WITH ORDINALITY AS e(event_id, topic, key, envelope, headers, key_hash, order_uuid, n)
       WHERE e.order_uuid IN (SELECT order_uuid FROM moved)
       ORDER BY e.n
       RETURNING key
     )
     ${allMoved('written', '$13', 'finalized')}`,
    [
      rows.map((r) => r.orderUuid),
      rows.map((r) => r.outcome),
      rows.map((r) => r.txHash),
      rows.map((r) => r.rawTx),
      rows.map((r) => String(r.blockNumber)),
      rows.map((r) => r.lastError),
      new Date(),
      col(0),
      col(1),
      col(2),
      col(3),
      col(4),
      rows.length,
      col(5),
    ],
  );
}

// The last part of a write above: no rows, or an error when `cte` (a part of the same statement)
// has fewer rows than the `expected` parameter says. These writes travel with the transaction's next
// statement or its COMMIT (writeWithNextStatement), so the check is the statement's own: a cast of
// the message to an integer fails with the message in the error. CASE, because its branches are
// evaluated in order: the cast only for a short count.
function allMoved(cte: string, expected: string, what: string): string {
  return `SELECT 1 FROM (SELECT count(*) AS n FROM ${cte}) c
     WHERE CASE WHEN c.n = ${expected}::bigint THEN false
       ELSE ('${what} ' || c.n || ' of ' || ${expected}::bigint
         || ' settlements: a row was not in the state its lock showed')::int IS NULL END`;
}
