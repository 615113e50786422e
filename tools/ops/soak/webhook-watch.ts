import { ProgrammableReceiver } from '@onramp/testing';

// Which orders' webhooks a merchant's endpoint has taken so far: the merchant's own signal that an
// order is finished. Reads only the part of the receiver's log that is new since the last look.
export class WebhookWatch {
  private seen = 0;
  private readonly arrived = new Set<string>();

  constructor(private readonly receiver: ProgrammableReceiver) {}

  has(orderUuid: string): boolean {
    const log = this.receiver.log;
    for (; this.seen < log.length; this.seen++)
      if (log[this.seen].answered === 200) this.arrived.add(log[this.seen].orderUuid);
    return this.arrived.has(orderUuid);
  }
}
