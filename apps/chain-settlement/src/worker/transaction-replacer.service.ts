import { Inject, Injectable, Logger } from '@nestjs/common';
import { formatUnits } from 'ethers';
import { EntityManager, In } from 'typeorm';

import { maxGasPrice, replacementFees } from '@onramp/settlement-domain';

import { ChainClient } from '../chain/chain.client';
import { feesOfSigned, TransferSigner } from '../chain/transfer-signer';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { SettlementTransactionEntity } from '../settlements/settlement-transaction.entity';
import { recordSignedTransaction } from '../settlements/settlement-transaction.repository';
import { SettlementEntity } from '../settlements/settlement.entity';
import { deferSettlement } from '../settlements/settlement.repository';
import { StepResult } from './step-result';

const gwei = (wei: bigint): string => formatUnits(wei, 'gwei');

// A stuck transaction gets a successor: same nonce, same transfer, higher fees. The successor is
// only stored here; it is broadcast by a later pass, after this transaction commits, so bytes that
// may reach a node are always on record. The earlier transactions stay on record too: any of them
// may still be mined, and whichever is decides the outcome.
@Injectable()
export class TransactionReplacer {
  private readonly log = new Logger('SettlementWorker');

  constructor(
    private readonly chain: ChainClient,
    private readonly signer: TransferSigner,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async replace(
    manager: EntityManager,
    s: SettlementEntity,
    current: SettlementTransactionEntity,
  ): Promise<StepResult> {
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
    const signed = await this.signer.signReplacement(current.rawTx, next.fees);
    await recordSignedTransaction(manager, {
      orderUuid: s.orderUuid,
      signerAddress: current.signerAddress,
      nonce: BigInt(current.nonce),
      fees: next.fees,
      ...signed,
    });
    await manager.update(
      SettlementEntity,
      { orderUuid: s.orderUuid, state: In(['SIGNED', 'BROADCAST']) },
      { rawTx: signed.rawTx, txHash: signed.txHash, nextAttemptAt: new Date(), updatedAt: new Date() },
    );
    this.log.warn(
      `order ${s.orderUuid}: ${current.txHash} (nonce ${current.nonce}) has no receipt after ` +
        `${this.config.stuckAfterMs / 1000} s; replaced by ${signed.txHash} ` +
        `(max fee ${gwei(maxGasPrice(previous))} -> ${gwei(maxGasPrice(next.fees))} gwei)`,
    );
    return { kind: 'replaced', orderUuid: s.orderUuid };
  }
}
