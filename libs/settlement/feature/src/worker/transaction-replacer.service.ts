import { Inject, Injectable, Logger } from '@nestjs/common';
import { formatUnits } from 'ethers';
import { EntityManager } from 'typeorm';

import { GasRejection, maxGasPrice, raisedGasLimit, replacementFees } from '@onramp/settlement-domain';

import { ChainClient } from '../chain/chain.client';
import {
  feesOfSigned,
  gasLimitOfSigned,
  ReplacementChanges,
  SignedTransfer,
  TransferSigner,
} from '../chain/transfer-signer';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { SettlementTransactionEntity } from '../settlements/settlement-transaction.entity';
import { recordSignedTransaction } from '../settlements/settlement-transaction.repository';
import { SettlementEntity } from '../settlements/settlement.entity';
import { deferSettlement, replaceCurrentTransaction } from '../settlements/settlement.repository';
import { SignerLeases } from '../signers/signer-leases';
import { StepResult } from './step-result';

const gwei = (wei: bigint): string => formatUnits(wei, 'gwei');

// A stuck transaction gets a successor: same nonce, same transfer, higher fees (or, after a node
// refused it for its gas, a higher gas limit). The successor is
// only stored here; it is broadcast by a later pass, after this transaction commits, so bytes that
// may reach a node are always on record. The earlier transactions stay on record too: any of them
// may still be mined, and whichever is decides the outcome.
@Injectable()
export class TransactionReplacer {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly chain: ChainClient,
    private readonly leases: SignerLeases,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async replace(
    manager: EntityManager,
    signer: TransferSigner,
    s: SettlementEntity,
    current: SettlementTransactionEntity,
    // 'stuck': no receipt after SETTLEMENT_STUCK_AFTER_SECONDS; 'pool-stall': the node holds it
    // outside its ready queue (DriveInFlightBatchStep).
    cause: 'stuck' | 'pool-stall',
  ): Promise<StepResult> {
    if (!(await this.leases.confirmHeld(manager, signer.address)))
      return { kind: 'waiting', orderUuid: s.orderUuid }; // the signer's new holder replaces it
    const previous = feesOfSigned(current.rawTx);
    const next = replacementFees(previous, await this.chain.fees(), this.config.maxFeeWei);
    if (next.kind === 'capped') {
      const reason =
        `transaction ${current.txHash} (nonce ${current.nonce}) is stuck; a replacement needs ` +
        `${gwei(next.neededWei)} gwei per gas, above SETTLEMENT_MAX_FEE_GWEI ${gwei(next.capWei)}: waiting for it`;
      this.log.error(`order ${s.orderUuid}: ${reason}`);
      await deferSettlement(manager, s, reason, this.config.pollMs);
      return { kind: 'deferred', orderUuid: s.orderUuid };
    }
    const signed = await this.store(manager, signer, s, current, { fees: next.fees });
    const why =
      cause === 'stuck'
        ? `has no receipt after ${this.config.stuckAfterMs / 1000} s`
        : `is held outside the node's ready queue`;
    this.log.warn(
      `order ${s.orderUuid}: ${current.txHash} (nonce ${current.nonce}) ${why}; replaced by ${signed.txHash} ` +
        `(max fee ${gwei(maxGasPrice(previous))} -> ${gwei(maxGasPrice(next.fees))} gwei)`,
    );
    return { kind: 'replaced', orderUuid: s.orderUuid };
  }

  // The node refused the current transaction for its gas ("intrinsic gas too low", "transaction
  // underpriced"): the same bytes would be refused forever, wedging every later nonce of the
  // wallet. The same transfer with the same nonce is signed again with a higher gas limit (up to
  // SETTLEMENT_GAS_CEILING) or higher fees (up to SETTLEMENT_MAX_FEE_GWEI); past those, the
  // settlement waits for an operator with the reason on record.
  async resign(
    manager: EntityManager,
    signer: TransferSigner,
    s: SettlementEntity,
    current: SettlementTransactionEntity,
    rejection: GasRejection,
  ): Promise<StepResult> {
    if (!(await this.leases.confirmHeld(manager, signer.address)))
      return { kind: 'waiting', orderUuid: s.orderUuid }; // the signer's new holder re-signs it
    const previousFees = feesOfSigned(current.rawTx);
    const previousGas = gasLimitOfSigned(current.rawTx);
    const refused = `the node refused ${current.txHash} (nonce ${current.nonce})`;
    if (rejection.kind === 'gas-limit') {
      const gasLimit = raisedGasLimit(
        previousGas,
        rejection.wantedGas,
        this.config.gasBufferPercent,
        this.config.gasCeiling,
      );
      if (gasLimit === undefined) {
        const reason = `${refused}: gas limit ${previousGas} too low, and SETTLEMENT_GAS_CEILING ${this.config.gasCeiling} allows no more: operator action needed`;
        this.log.error(`order ${s.orderUuid}: ${reason}`);
        await deferSettlement(manager, s, reason, this.config.pollMs);
        return { kind: 'deferred', orderUuid: s.orderUuid };
      }
      const signed = await this.store(manager, signer, s, current, { fees: previousFees, gasLimit });
      this.log.warn(
        `order ${s.orderUuid}: ${refused} as its gas limit ${previousGas} was too low; signed ${signed.txHash} with ${gasLimit}`,
      );
      return { kind: 'replaced', orderUuid: s.orderUuid };
    }
    const next = replacementFees(previousFees, await this.chain.fees(), this.config.maxFeeWei);
    if (next.kind === 'capped') {
      const reason = `${refused} as underpriced; more than ${gwei(next.capWei)} gwei (SETTLEMENT_MAX_FEE_GWEI) would be needed: waiting`;
      this.log.error(`order ${s.orderUuid}: ${reason}`);
      await deferSettlement(manager, s, reason, this.config.pollMs);
      return { kind: 'deferred', orderUuid: s.orderUuid };
    }
    const signed = await this.store(manager, signer, s, current, { fees: next.fees });
    this.log.warn(
      `order ${s.orderUuid}: ${refused} as underpriced; signed ${signed.txHash} ` +
        `(max fee ${gwei(maxGasPrice(previousFees))} -> ${gwei(maxGasPrice(next.fees))} gwei)`,
    );
    return { kind: 'replaced', orderUuid: s.orderUuid };
  }

  // The successor is stored before anything sends it; a later pass broadcasts it.
  private async store(
    manager: EntityManager,
    signer: TransferSigner,
    s: SettlementEntity,
    current: SettlementTransactionEntity,
    changes: ReplacementChanges,
  ): Promise<SignedTransfer> {
    const signed = await signer.signReplacement(current.rawTx, changes);
    await recordSignedTransaction(manager, {
      orderUuid: s.orderUuid,
      signerAddress: current.signerAddress,
      nonce: BigInt(current.nonce),
      fees: changes.fees,
      ...signed,
    });
    await replaceCurrentTransaction(manager, s.orderUuid, signed);
    return signed;
  }
}
