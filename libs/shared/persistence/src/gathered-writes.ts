// How a kind of write goes to Postgres alone and several at once.
export interface GatheredWriter<I, A> {
  // One item in a statement (or transaction) of its own: its own outcome or error.
  one(item: I): Promise<A>;
  // Several in one statement (or transaction), their answers in input order. It fails as a whole.
  many(items: readonly I[]): Promise<A[]>;
}

export interface GatherOptions<I> {
  // Writes at once; what arrives meanwhile waits for one of them to finish. One by default: an item
  // that arrives alone still goes at once, and under load the items gather into fewer, larger writes
  // (order creation in P1: 0.19 statements an order against 0.35 with two, for less of the platform's
  // CPU and less time an order; docs/performance-journal.md, 2026-12-02).
  maxInFlight?: number;
  maxBatch?: number;
  // Items that share a key never go in the same write (two credits of one reference must take
  // turns, each seeing what the other committed); a later write takes the second.
  keysOf?: (item: I) => readonly string[];
}

interface Waiting<I, A> {
  item: I;
  resolve: (answer: A) => void;
  reject: (err: unknown) => void;
}

// Writes that arrive together go to Postgres together. An item that finds fewer than maxInFlight
// writes under way goes at once, alone (`one`), so a quiet service waits for nothing; the items that
// arrive while the writes run wait and go in one (`many`): under load one round trip, one commit and
// one wake-up of a Postgres backend for several items instead of one each. When a shared write fails
// as a whole, each of its items is written again on its own, so one item's fault stays its own. The
// items of one write commit together: none of them is answered before that commit.
export class GatheredWrites<I, A> {
  private waiting: Array<Waiting<I, A>> = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;

  constructor(
    private readonly writer: GatheredWriter<I, A>,
    private readonly opts: GatherOptions<I> = {},
  ) {
    this.maxInFlight = opts.maxInFlight ?? 1;
    this.maxBatch = opts.maxBatch ?? 64;
  }

  write(item: I): Promise<A> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.take();
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  // The waiting items in arrival order, up to maxBatch, passing over any that shares a key with one
  // taken (it stays first in line for the next write).
  private take(): Array<Waiting<I, A>> {
    const { keysOf } = this.opts;
    if (!keysOf) return this.waiting.splice(0, this.maxBatch);
    const taken: Array<Waiting<I, A>> = [];
    const left: Array<Waiting<I, A>> = [];
    const keys = new Set<string>();
    for (const w of this.waiting) {
      const own = keysOf(w.item);
      if (taken.length < this.maxBatch && !own.some((k) => keys.has(k))) {
        taken.push(w);
        for (const k of own) keys.add(k);
      } else left.push(w);
    }
    this.waiting = left;
    return taken;
  }

  private async run(batch: Array<Waiting<I, A>>): Promise<void> {
    if (batch.length > 1) {
      try {
        const answers = await this.writer.many(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(answers[i] as A));
        return;
      } catch {
        // written again one by one below: the error that concerns an item reaches that item's caller
      }
    }
    await Promise.all(batch.map((w) => this.writer.one(w.item).then(w.resolve, w.reject)));
  }
}
