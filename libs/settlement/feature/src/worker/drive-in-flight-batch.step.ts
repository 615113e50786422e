import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import {
  assertTransition,
  dueForStallCheck,
  isPoolStalled,
  isStuck,
  outcomeOfReceipt,
  SettlementState,
} from '@onramp/settlement-domain';

import { ChainClient, ChainReceipt } from '../chain/chain.client';
import { Finality } from '../chain/finality';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { SettlementTransactionEntity } from '../settlements/settlement-transaction.entity';
import { markSentAndBroadcast } from '../settlements/settlement-batch.repository';
import { SettlementEntity } from '../settlements/settlement.entity';
import { lockInFlightWithTransactions } from '../settlements/settlement.repository';
import { crashPoint } from './crash-point';
import { REBROADCAST_AFTER_MS } from './drive-in-flight.step';
import { Finalization, SettlementFinalizer } from './settlement-finalizer.service';

export interface InFlightBatchResult {
  sent: number; // never-sent transactions the node took
  finalized: number;
  // Settlements this pass dealt with completely; the rest (a send the node refused, a receipt short
  // of confirmations, a rebroadcast or replacement that is due) go to DriveInFlightStep one by one.
  handled: Set<string>;
  // Settlements whose current transaction (order uuid -> its hash) the node took but holds outside
  // its ready queue (anvil's pool race, @onramp/settlement-domain pool-stall.ts): the one-by-one step
  // replaces it at once.
  stalled: Map<string, string>;
  // It looked at every in-flight settlement due (fewer than its limit) and handled each of them, so
  // the one-by-one step would find none.
  complete: boolean;
}

// The common case of DriveInFlightStep for many settlements at once, in one transaction: the
// receipts of every hash of every in-flight settlement in one batched JSON-RPC call; the stored,
// never-sent transactions of those without a receipt sent back to back in nonce order, without a
// database round trip between them; the mined ones finalized. Only stored bytes are sent, and nothing is signed
// here, so a batch that fails or rolls back can at worst send the same bytes again, which the
// chain accepts once. Anything unusual is left to DriveInFlightStep, which knows the clues.
@Injectable()
export class DriveInFlightBatchStep {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly finalizer: SettlementFinalizer,
    private readonly finality: Finality,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  // The in-flight settlements of `signerAddress` (the signer this process holds the lease of).
  async runBatch(signerAddress: string, limit: number): Promise<InFlightBatchResult> {
    return this.dataSource.transaction(async (manager) => {
      const result: InFlightBatchResult = {
        sent: 0,
        finalized: 0,
        handled: new Set(),
        stalled: new Map(),
        complete: false,
      };
      const { rows, txsOf } = await lockInFlightWithTransactions(manager, signerAddress, limit);
      if (rows.length === 0) return { ...result, complete: true };
      // Only transactions a node took can have a receipt. A settlement whose bytes were never marked
      // sent is sent below, unasked: if a process died between its send and the mark, the node answers
      // "nonce too low" or "already known", the batch stops there, and the one-by-one step reads that
      // clue (it finds the receipt by hash). Saves a round trip per pass while new settlements arrive.
      // On the local chain, the signer's pending nonce goes in the same batched round trip while a
      // transaction sent a while ago may have met anvil's pool race.
      const suspects = this.stallSuspects(rows, txsOf);
      const [receipts, pendingNonce] = await Promise.all([
        Promise.all(
          rows.map((s) => {
            const txs = txsOf.get(s.orderUuid) ?? [];
            return txs.some((t) => t.firstSentAt !== null)
              ? this.chain.receiptOfAny(txs.map((t) => t.txHash))
              : Promise.resolve(null);
          }),
        ),
        suspects.size > 0 ? this.chain.nonce(signerAddress, 'pending') : Promise.resolve(null),
      ]);
      if (pendingNonce !== null) this.findStalled(rows, receipts, suspects, pendingNonce, result);

      const unsent = rows.flatMap((s, i) => {
        const current = txsOf.get(s.orderUuid)?.at(-1);
        return !receipts[i] && current && current.firstSentAt === null ? [{ s, current }] : [];
      });
      const sent = await this.sendAll(manager, unsent, result);
      // A node that mines on arrival (a local chain; a rollup sequencer's receipt) often has the
      // receipt of what was just sent already: finalized in this pass, not one pass later. Only a
      // receipt finalizes, so this is the same rule as for the receipts read above.
      // The final height goes in the same batched JSON-RPC round trip.
      const anyReceipt = receipts.some((r) => r !== null);
      const [sentReceipts, finalHeight] = await Promise.all([
        Promise.all(sent.map(({ current }) => this.chain.receiptOfAny([current.txHash]))),
        sent.length > 0 || anyReceipt ? this.finality.finalHeight() : Promise.resolve(0),
      ]);

      const mined = [
        ...rows.flatMap((s, i) => {
          const receipt = receipts[i];
          return receipt ? [{ s, receipt }] : [];
        }),
        ...sent.flatMap(({ s }, i) => {
          const receipt = sentReceipts[i];
          return receipt ? [{ s, receipt }] : [];
        }),
      ];
      if (mined.length > 0) await this.finalizeAll(manager, mined, finalHeight, txsOf, result);

      // Broadcast earlier and simply not mined yet: nothing to do until a rebroadcast or replacement is due.
      for (const [i, s] of rows.entries()) {
        const current = txsOf.get(s.orderUuid)?.at(-1);
        if (receipts[i] || !current || current.firstSentAt === null || !s.broadcastAt) continue;
        if (result.stalled.has(s.orderUuid)) continue;
        const rebroadcastDue = Date.now() - s.broadcastAt.getTime() >= REBROADCAST_AFTER_MS;
        if (!rebroadcastDue && !isStuck(current.firstSentAt, new Date(), this.config.stuckAfterMs))
          result.handled.add(s.orderUuid);
      }
      result.complete = rows.length < limit && result.handled.size === rows.length;
      return result;
    });
  }

  // The current transactions that were sent long enough ago to be checked (pool-stall.ts), by order uuid.
  private stallSuspects(
    rows: SettlementEntity[],
    txsOf: Map<string, SettlementTransactionEntity[]>,
  ): Map<string, SettlementTransactionEntity> {
    const suspects = new Map<string, SettlementTransactionEntity>();
    if (!this.config.localDevChain) return suspects;
    const now = new Date();
    for (const s of rows) {
      const txs = txsOf.get(s.orderUuid) ?? [];
      const current = txs.at(-1);
      if (current && dueForStallCheck(current.firstSentAt, now, txs.length - 1))
        suspects.set(s.orderUuid, current);
    }
    return suspects;
  }

  private findStalled(
    rows: SettlementEntity[],
    receipts: (ChainReceipt | null)[],
    suspects: Map<string, SettlementTransactionEntity>,
    pendingNonce: bigint,
    result: InFlightBatchResult,
  ): void {
    for (const [i, s] of rows.entries()) {
      const current = suspects.get(s.orderUuid);
      if (!current || !isPoolStalled(BigInt(current.nonce), pendingNonce, receipts[i] !== null)) continue;
      this.log.warn(
        `order ${s.orderUuid}: the node took ${current.txHash} (nonce ${current.nonce}) but does not count ` +
          `it as pending (pending nonce ${pendingNonce}): held outside its ready queue, it is replaced now`,
      );
      result.stalled.set(s.orderUuid, current.txHash);
    }
  }

  private async sendAll(
    manager: EntityManager,
    unsent: { s: SettlementEntity; current: SettlementTransactionEntity }[],
    result: InFlightBatchResult,
  ): Promise<{ s: SettlementEntity; current: SettlementTransactionEntity }[]> {
    if (unsent.length === 0) return [];
    const sent = this.config.localDevChain
      ? await this.sendHighestFirst(unsent)
      : await this.sendOneByOne(unsent);
    if (sent.length > 0) crashPoint('after-broadcast', this.config.crashPoints);
    for (const { s } of sent) if (s.state === 'SIGNED') assertTransition(s.state, 'BROADCAST');
    await markSentAndBroadcast(
      manager,
      sent.map(({ s, current }) => ({ orderUuid: s.orderUuid, txHash: current.txHash })),
    );
    for (const { s, current } of sent) {
      this.log.log(`order ${s.orderUuid}: broadcast ${current.txHash} (nonce ${current.nonce})`);
      result.sent++;
      result.handled.add(s.orderUuid);
    }
    return sent;
  }

  // One after the other in nonce order, each waiting for the node's answer: a node that gets a higher
  // nonce before a lower one may park it as gapped, or, past its per-account queue limit, drop it.
  // The first refusal ends the batch: what follows it would be gapped; the one-by-one step reads its
  // clues.
  private async sendOneByOne<T extends { current: SettlementTransactionEntity }>(unsent: T[]): Promise<T[]> {
    const sent: T[] = [];
    for (const item of unsent) {
      try {
        await this.chain.broadcast(item.current.rawTx);
      } catch {
        break;
      }
      sent.push(item);
    }
    return sent;
  }

  // The local development chain: every nonce above the batch's lowest at once, then the lowest. anvil
  // files the higher ones as waiting for their predecessors, and the lowest, when it arrives, makes
  // them all ready in one step, mined in one block: two round trips for any number of transactions.
  // It also narrows the race in anvil's pool (pool-stall.ts) to the lowest alone, whose predecessor
  // went out a pass earlier; one by one, each transaction arrived while its predecessor was being
  // mined. Every transaction the node took counts as sent, a refused lowest included: the others
  // wait in the node's queue until the one-by-one step gets that nonce out.
  private async sendHighestFirst<T extends { current: SettlementTransactionEntity }>(
    unsent: T[],
  ): Promise<T[]> {
    const [lowest, ...higher] = unsent as [T, ...T[]];
    const higherAnswers = await this.chain.broadcastAll(higher.map(({ current }) => current.rawTx));
    const [lowestAnswer] = await this.chain.broadcastAll([lowest.current.rawTx]);
    const answers = [lowestAnswer, ...higherAnswers];
    return unsent.filter((_, i) => answers[i] === null);
  }

  private async finalizeAll(
    manager: EntityManager,
    mined: { s: SettlementEntity; receipt: ChainReceipt }[],
    finalHeight: number,
    txsOf: Map<string, SettlementTransactionEntity[]>,
    result: InFlightBatchResult,
  ): Promise<void> {
    const final: Finalization[] = [];
    for (const { s, receipt } of mined) {
      // Not final yet: the one-by-one step records the block and waits.
      if (receipt.blockNumber > finalHeight) continue;
      const tx = txsOf.get(s.orderUuid)?.find((t) => t.txHash === receipt.txHash);
      if (!tx) continue;
      let state: SettlementState = s.state;
      if (state === 'SIGNED') {
        assertTransition(state, 'BROADCAST'); // a receipt proves the bytes reached the chain
        state = 'BROADCAST';
      }
      const outcome = outcomeOfReceipt(receipt.status);
      assertTransition(state, outcome);
      final.push({ s, outcome, receipt, mined: tx });
    }
    // every outcome and its event in one statement
    await this.finalizer.finalizeAll(manager, final);
    for (const { s } of final) {
      result.finalized++;
      result.handled.add(s.orderUuid);
    }
  }
}
