import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { OutboxRelay, OutboxWriter } from '@onramp/messaging';

import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';
import { OpenReferencesRepository } from '../references/open-references.repository';

export const ORDER_EXPIRED_REASON = 'order expired';

// References expired per transaction: a backlog is worked off in short transactions.
const BATCH = 100;

// Fails the orders nobody paid within ORDER_TTL. Payment-ingest decides, not orders: only here,
// under the reference row lock the matcher also takes, can "no credit has paid it" be true at the
// moment of expiring (a payment.confirmed already on its way would otherwise meet a FAILED order
// and still be paid out). Each reference turns EXPIRED and its payment.failed ("order expired")
// commits in the same transaction; a row locked by a credit being matched is skipped and looked at
// on the next sweep, so expiry never waits for a payment nor overtakes it.
@Injectable()
export class ExpireOrdersUseCase {
  private readonly log = new Logger(ExpireOrdersUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxWriter,
    private readonly relay: OutboxRelay,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
    private readonly references: OpenReferencesRepository,
  ) {}

  async execute(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.orderTtlMs);
    let expired = 0;
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const rows = await this.references.lockExpirable(manager, cutoff, BATCH);
        for (const row of rows) {
          await this.references.markExpired(manager, row.reference, now);
          await this.outbox.append(manager, {
            type: Topics.PaymentFailed,
            key: row.orderUuid,
            merchantId: row.merchantId,
            data: {
              orderUuid: row.orderUuid,
              reference: row.reference,
              payedAmount: '0',
              reason: ORDER_EXPIRED_REASON,
            },
          });
        }
        return rows.length;
      });
      expired += batch;
      if (batch < BATCH) break;
    }
    if (expired > 0) {
      this.relay.nudge();
      this.log.log(`${expired} unpaid order(s) expired (created before ${cutoff.toISOString()})`);
    }
    return expired;
  }
}
