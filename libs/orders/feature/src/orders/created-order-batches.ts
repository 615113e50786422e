import { DataSource } from 'typeorm';

import { OrderEntity } from './order.entity';
import { OrdersRepository, OutboxInsert } from './orders.repository';

export interface CreatedOrderAnswer {
  created: boolean;
  eligible: boolean;
}

interface Waiting {
  item: { order: OrderEntity; event: OutboxInsert };
  resolve: (answer: CreatedOrderAnswer) => void;
  reject: (err: unknown) => void;
}

// Statements of new orders at once; what arrives while they run waits and goes in one statement.
// Two, so an order arriving alone never waits for another's statement to finish.
const MAX_IN_FLIGHT = 2;
const MAX_BATCH = 64;

// New orders (no Idempotency-Key) go to Postgres together when they arrive together: the orders that
// came in while earlier statements ran are written by one statement (insertCreatedIfEligibleMany),
// each order still checked and inserted on its own terms. Under load that is one round trip, one
// commit and one wake-up of a Postgres backend for several orders instead of one each; an order that
// finds nothing in flight goes at once, alone, as before. If a shared statement fails as a whole,
// each of its orders is written again on its own, so one order's fault stays its own. The orders of
// one statement commit together: none of them is answered before that commit.
export class CreatedOrderBatches {
  private waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
  ) {}

  insert(order: OrderEntity, event: OutboxInsert): Promise<CreatedOrderAnswer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item: { order, event }, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const answers = await this.orders.insertCreatedIfEligibleMany(
          this.dataSource.manager,
          batch.map((w) => w.item),
        );
        batch.forEach((w, i) => w.resolve(answers[i] as CreatedOrderAnswer));
        return;
      } catch {
        // written again one by one below: the error that concerns an order reaches that order's request
      }
    }
    await Promise.all(
      batch.map((w) =>
        this.orders
          .insertCreatedIfEligible(this.dataSource.manager, w.item.order, w.item.event)
          .then(w.resolve, w.reject),
      ),
    );
  }
}
