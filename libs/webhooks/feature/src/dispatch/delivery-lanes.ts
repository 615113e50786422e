// This process's claimed deliveries, one lane per merchant. A claim is held from the claim until its
// send ended: waiting in its lane or being sent (what was sent waits for the dispatcher's next round
// to record it, its delivery still leased). A lane sends at most maxSendingPerMerchant at once and the process maxSending, so one
// merchant's slow endpoint holds only its own share. Lanes are claimed a few sends ahead (the claim's
// per-merchant limit counts what is held), so a lane starts its next send the moment one finishes,
// without waiting for a round trip to Postgres. A lane whose endpoint is slow to answer is not
// claimed further ahead (see heldBy), so a hanging endpoint does not collect claims it cannot send
// within their lease.
interface Lane<T> {
  waiting: T[];
  sending: number[]; // when each send under way started
  held: number;
}

export class DeliveryLanes<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  private sendingTotal = 0;
  private heldTotal = 0;

  constructor(
    private readonly maxSending: number,
    private readonly maxSendingPerMerchant: number,
  ) {}

  held(): number {
    return this.heldTotal;
  }

  sending(): number {
    return this.sendingTotal;
  }

  // Claims of the merchant waiting to be sent.
  waitingFor(merchantId: string): number {
    return this.lanes.get(merchantId)?.waiting.length ?? 0;
  }

  // What each merchant holds, for the claim; a lane with a send under way for longer than slowMs
  // counts as holding `full` (nothing more is claimed for it until its endpoint answers again).
  heldBy(slow: { now: number; slowMs: number; full: number }): { merchantIds: string[]; counts: number[] } {
    const merchantIds: string[] = [];
    const counts: number[] = [];
    for (const [id, lane] of this.lanes) {
      merchantIds.push(id);
      counts.push(this.count(lane, slow));
    }
    return { merchantIds, counts };
  }

  // The same for one merchant.
  heldFor(merchantId: string, slow: { now: number; slowMs: number; full: number }): number {
    const lane = this.lanes.get(merchantId);
    return lane ? this.count(lane, slow) : 0;
  }

  private count(lane: Lane<T>, slow: { now: number; slowMs: number; full: number }): number {
    const stuck = lane.sending.some((startedAt) => slow.now - startedAt > slow.slowMs);
    return stuck ? Math.max(lane.held, slow.full) : lane.held;
  }

  add(merchantId: string, item: T): void {
    this.reserve(merchantId);
    this.fill(merchantId, item);
  }

  // Holds a place for a claim that is still being made (a delivery inserted claimed in a transaction
  // not yet ended): counted as held from now on; then fill() it, or release() it if it came to nothing.
  reserve(merchantId: string): void {
    let lane = this.lanes.get(merchantId);
    if (!lane) {
      lane = { waiting: [], sending: [], held: 0 };
      this.lanes.set(merchantId, lane);
    }
    lane.held++;
    this.heldTotal++;
  }

  // The claim a reserve() held a place for, now waiting to be sent.
  fill(merchantId: string, item: T): void {
    this.lanes.get(merchantId)?.waiting.push(item);
  }

  // What may be sent now, oldest first within a lane, one lane after the other in turn (a lane that
  // was served goes to the back), so that under the process-wide limit no merchant waits on another.
  // Runs after every send: the lanes that can send are listed once, then served in turn.
  start(now = Date.now()): Array<{ merchantId: string; item: T; startedAt: number }> {
    const out: Array<{ merchantId: string; item: T; startedAt: number }> = [];
    if (this.sendingTotal >= this.maxSending) return out;
    let ready: Array<[string, Lane<T>]> = [];
    for (const entry of this.lanes) if (this.canSend(entry[1])) ready.push(entry);
    while (ready.length > 0) {
      for (const [merchantId, lane] of ready) {
        if (this.sendingTotal >= this.maxSending) return out;
        out.push({ merchantId, item: lane.waiting.shift() as T, startedAt: now });
        lane.sending.push(now);
        this.sendingTotal++;
        this.lanes.delete(merchantId);
        this.lanes.set(merchantId, lane);
      }
      ready = ready.filter(([, lane]) => this.canSend(lane));
    }
    return out;
  }

  private canSend(lane: Lane<T>): boolean {
    return lane.sending.length < this.maxSendingPerMerchant && lane.waiting.length > 0;
  }

  // A send of the merchant's ended (answered, failed or aborted); the claim is held until release().
  sent(merchantId: string, startedAt: number): void {
    const lane = this.lanes.get(merchantId);
    const i = lane ? lane.sending.indexOf(startedAt) : -1;
    if (!lane || i < 0) return;
    lane.sending.splice(i, 1);
    this.sendingTotal--;
  }

  // The claim is over: sent, or given up.
  release(merchantId: string): void {
    const lane = this.lanes.get(merchantId);
    if (!lane || lane.held === 0) return;
    lane.held--;
    this.heldTotal--;
    if (lane.held === 0) this.lanes.delete(merchantId);
  }

  // Every claim not yet sent, taken out of its lane (and released), e.g. to hand back at shutdown.
  takeWaiting(): T[] {
    const out: T[] = [];
    for (const [merchantId, lane] of [...this.lanes]) {
      for (const item of lane.waiting.splice(0)) {
        out.push(item);
        this.release(merchantId);
      }
    }
    return out;
  }
}
