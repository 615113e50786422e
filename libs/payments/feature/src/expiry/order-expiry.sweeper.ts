import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';

import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';
import { ExpireOrdersUseCase } from './expire-orders.usecase';

// How often unpaid orders are looked at: a tenth of ORDER_TTL, between 1 s and 1 min, so an order
// expires at most that late.
export function sweepIntervalMs(orderTtlMs: number): number {
  return Math.min(60_000, Math.max(1000, Math.floor(orderTtlMs / 10)));
}

// Runs ExpireOrdersUseCase on a timer from bootstrap until the module closes. Several replicas may
// sweep at once: rows are claimed with SKIP LOCKED and the update is conditional on OPEN.
@Injectable()
export class OrderExpirySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(OrderExpirySweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly expire: ExpireOrdersUseCase,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.sweep(), sweepIntervalMs(this.config.orderTtlMs));
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private sweep(): void {
    if (this.running) return; // the previous sweep is still working off a backlog
    this.running = this.expire
      .execute()
      .catch((err: unknown) =>
        this.log.warn(
          `order expiry sweep failed, retried next time: ${err instanceof Error ? err.message : String(err)}`,
        ),
      )
      .finally(() => (this.running = undefined));
  }
}
