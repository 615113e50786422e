import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

import {
  assertTransition,
  classifyChainError,
  gasRejectionOf,
  GasRejection,
  isStuck,
  outcomeOfReceipt,
  SettlementState,
} from '@onramp/settlement-domain';

import { crashPoint } from './crash-point';
import { ChainClient, ChainReceipt } from '../chain/chain.client';
import { Finality } from '../chain/finality';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { SettlementTransactionEntity } from '../settlements/settlement-transaction.entity';
import { markSentAndBroadcast } from '../settlements/settlement-batch.repository';
import { transactionsOf } from '../settlements/settlement-transaction.repository';
import { SettlementEntity } from '../settlements/settlement.entity';
import { deferSettlement, lockNextDue, recordMined } from '../settlements/settlement.repository';
import { TransferSigner } from '../chain/transfer-signer';
import { SettlementFinalizer } from './settlement-finalizer.service';
import { OnPicked, StepResult } from './step-result';
import { TransactionReplacer } from './transaction-replacer.service';

export { TRANSFER_REVERTED_REASON } from './settlement-finalizer.service';

// A node may drop a transaction from its mempool; the same bytes are sent again after this long.
export const REBROADCAST_AFTER_MS = 15_000;

type SendOutcome =
  | { kind: 'sent' | 'known'; receipt: ChainReceipt | null }
  | { kind: 'nonce-taken' }
  | { kind: 'gas-refused'; rejection: GasRejection };

// SIGNED/BROADCAST -> BROADCAST -> CONFIRMED | FAILED, for the settlements of the signer this process
// holds the lease of (a taken-over signer's too: they are its settlements). Only stored bytes are
// ever sent (the settlement's latest transaction), so a restart, a retry or a second worker can at
// worst send the same transaction twice, which the chain accepts once. The outcome comes from a receipt looked up
// by every hash the settlement ever signed, never from a send's answer.
@Injectable()
export class DriveInFlightStep {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly replacer: TransactionReplacer,
    private readonly finalizer: SettlementFinalizer,
    private readonly finality: Finality,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async runOnce(
    signer: TransferSigner,
    skip: Set<string>,
    onPicked: OnPicked = () => undefined,
    stalled: ReadonlyMap<string, string> = new Map(),
  ): Promise<StepResult> {
    return this.dataSource.transaction(async (manager): Promise<StepResult> => {
      const s = await lockNextDue(manager, ['SIGNED', 'BROADCAST'], skip, 'nonce', signer.address);
      if (!s) return { kind: 'idle' };
      skip.add(s.orderUuid);
      onPicked(s.orderUuid);
      const txs = await transactionsOf(manager, s.orderUuid);
      const current = txs.at(-1);
      if (!current) throw new Error(`settlement is ${s.state} but no signed transaction is stored`);
      const hashes = txs.map((t) => t.txHash);

      let state: SettlementState = s.state;
      let receipt = await this.chain.receiptOfAny(hashes);
      // Held outside the node's ready queue (found by DriveInFlightBatchStep): sending the same bytes
      // again would not help, a successor does.
      if (!receipt && stalled.get(s.orderUuid) === current.txHash)
        return this.replacer.replace(manager, signer, s, current, 'pool-stall');
      if (!receipt && this.dueForSending(s, current)) {
        const sent = await this.send(current, hashes);
        if (sent.kind === 'nonce-taken') {
          const reason = `nonce ${current.nonce} of ${current.signerAddress} was used by a transaction we did not sign; none of ${hashes.join(', ')} can be mined. Operator action needed; the order is held`;
          this.log.error(`order ${s.orderUuid}: ${reason}`);
          await deferSettlement(manager, s, reason, this.config.pollMs);
          return { kind: 'deferred', orderUuid: s.orderUuid };
        }
        if (sent.kind === 'gas-refused')
          return this.replacer.resign(manager, signer, s, current, sent.rejection);
        receipt = sent.receipt;
        if (state === 'SIGNED') {
          assertTransition(state, 'BROADCAST');
          state = 'BROADCAST';
        }
        await markSentAndBroadcast(manager, [{ orderUuid: s.orderUuid, txHash: current.txHash }]);
      } else if (!receipt && isStuck(current.firstSentAt, new Date(), this.config.stuckAfterMs)) {
        return this.replacer.replace(manager, signer, s, current, 'stuck');
      }
      if (!receipt) return { kind: state === s.state ? 'waiting' : 'broadcast', orderUuid: s.orderUuid };

      const minedHash = receipt.txHash;
      const mined = txs.find((t) => t.txHash === minedHash) as SettlementTransactionEntity;
      if (state === 'SIGNED') {
        assertTransition(state, 'BROADCAST'); // a receipt proves the bytes reached the chain
        state = 'BROADCAST';
      }
      if (receipt.blockNumber > (await this.finality.finalHeight())) {
        await recordMined(manager, s.orderUuid, state, {
          txHash: mined.txHash,
          rawTx: mined.rawTx,
          blockNumber: receipt.blockNumber,
        });
        return { kind: 'waiting', orderUuid: s.orderUuid };
      }
      const outcome = outcomeOfReceipt(receipt.status);
      assertTransition(state, outcome);
      await this.finalizer.finalize(manager, s, outcome, receipt, mined);
      return { kind: 'finalized', orderUuid: s.orderUuid, outcome };
    });
  }

  // The current transaction was never sent (just signed, or just replaced), or a node may have
  // dropped it since it was last sent.
  private dueForSending(s: SettlementEntity, current: SettlementTransactionEntity): boolean {
    return (
      current.firstSentAt === null ||
      !s.broadcastAt ||
      Date.now() - s.broadcastAt.getTime() >= REBROADCAST_AFTER_MS
    );
  }

  // 'sent': the node took it. 'known': the node already has it, or one of our transactions with
  // its nonce (maybe mined: its receipt is returned). 'nonce-taken': the nonce is spent, and by
  // none of our hashes. 'gas-refused': too little gas or fee, which no retry cures. Transient and
  // other rejecting errors throw; the worker retries later.
  private async send(current: SettlementTransactionEntity, hashes: string[]): Promise<SendOutcome> {
    try {
      await this.chain.broadcast(current.rawTx);
      crashPoint('after-broadcast', this.config.crashPoints);
      this.log.log(`order ${current.orderUuid}: broadcast ${current.txHash} (nonce ${current.nonce})`);
      return { kind: 'sent', receipt: null };
    } catch (err) {
      const rejection = gasRejectionOf(err);
      if (rejection) return { kind: 'gas-refused', rejection };
      if (classifyChainError(err) !== 'clue')
        throw new Error(`broadcast of ${current.txHash} failed`, { cause: err });
      const receipt = await this.chain.receiptOfAny(hashes);
      if (receipt) return { kind: 'known', receipt };
      const mined = await this.chain.nonce(current.signerAddress, 'latest');
      if (mined <= BigInt(current.nonce)) return { kind: 'known', receipt: null };
      // Mined meanwhile? Look once more now that the nonce is known to be spent.
      const late = await this.chain.receiptOfAny(hashes);
      return late ? { kind: 'known', receipt: late } : { kind: 'nonce-taken' };
    }
  }
}
