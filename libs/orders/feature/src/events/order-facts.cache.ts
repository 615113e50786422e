import { OrderFacts } from '../orders/order.entity';

// The facts payment.confirmed's update returned, kept for the transfer.* event that usually follows
// in the same process, so that event is built without reading the order. They never change, so an
// entry cannot be stale; a miss (another process, a restart, an evicted entry) costs the read.
// Bounded: the oldest entry goes first.
export class OrderFactsCache {
  private readonly facts = new Map<string, OrderFacts>();

  constructor(private readonly capacity = 10_000) {}

  remember(facts: OrderFacts): void {
    this.facts.delete(facts.uuid);
    this.facts.set(facts.uuid, facts);
    if (this.facts.size > this.capacity) {
      const oldest = this.facts.keys().next();
      if (!oldest.done) this.facts.delete(oldest.value);
    }
  }

  // Taken out: the event that takes it ends the order.
  take(uuid: string): OrderFacts | undefined {
    const facts = this.facts.get(uuid);
    this.facts.delete(uuid);
    return facts;
  }
}
