import type { ConsumedRecord } from './event-transport';

export interface BatchGatherOptions {
  // How long a record of `topic` may wait for company (SubscribeOptions.mayWaitMs); 0 or none: it
  // is handed over at once.
  mayWaitMs?: (topic: string) => number;
}

interface Waiting {
  records: ConsumedRecord[];
  resolve: () => void;
  reject: (err: unknown) => void;
  mayWait: boolean; // every record of the chunk may wait for company
}

// The chunks a transport hands over one partition at a time, all started in the same tick, handled
// together: one `handle` call, so one consumer transaction instead of one per partition. Kafka: one
// `eachBatch` call per partition of a fetch. The embedded bus: one partition consumer per partition,
// all woken by the same append (a relay's move spreads its events over the partitions by key).
// Each partition's records stay in log order and a partition has one chunk here at a time (its
// caller waits for it), so the order within a partition is kept; partitions carry different keys
// and never were ordered together.
// A caller's promise settles when the call that held its chunk did: offsets are resolved only after
// the transaction committed. A large group is split between whole chunks (see packChunks).
export class BatchGather {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private timer?: NodeJS.Timeout;
  private lastRunAt = 0;
  private readonly packs: Waiting[][] = [];
  private running = 0;
  private readonly concurrency = 4; // calls at once, side by side, each a transaction of its own

  constructor(
    private readonly handle: (records: ConsumedRecord[]) => Promise<void>,
    private readonly maxRecords: number,
    private readonly opts: BatchGatherOptions = {},
  ) {}

  submit(records: ConsumedRecord[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waitMs = this.mayWaitMs(records);
      this.waiting.push({ records, resolve, reject, mayWait: waitMs > 0 });
      this.schedule(waitMs);
    });
  }

  // After every chunk of this tick was submitted (a fetch's eachBatch calls, an append's wake-ups),
  // or, when every chunk waiting may wait for company, no sooner than `waitMs` after the last call
  // began: a quiet consumer still hands a record over at once, a busy one gathers what arrives
  // meanwhile into one call.
  private schedule(waitMs: number): void {
    if (this.scheduled) return;
    const delay = waitMs > 0 ? this.lastRunAt + waitMs - Date.now() : 0;
    if (delay > 0) {
      this.timer ??= setTimeout(() => this.run(), delay);
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  private mayWaitMs(records: readonly ConsumedRecord[]): number {
    const of = this.opts.mayWaitMs;
    if (!of || records.length === 0) return 0;
    let ms = Infinity;
    for (const r of records) ms = Math.min(ms, of(r.topic));
    return ms;
  }

  private run(): void {
    this.scheduled = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastRunAt = Date.now();
    const group = this.waiting;
    this.waiting = [];
    // What waited for company goes in as few calls as it fits: it was not in a hurry.
    const spread = group.every((w) => w.mayWait) ? 1 : this.concurrency;
    this.packs.push(...packChunks(group, this.maxRecords, spread));
    // the packs hold different partitions: they run side by side, as the partitions did before,
    // at most `concurrency` at a time (also with a partition's next chunk arriving meanwhile)
    while (this.running < this.concurrency && this.packs.length > 0) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running++;
    try {
      for (let pack = this.packs.shift(); pack; pack = this.packs.shift()) {
        try {
          await this.handle(pack.flatMap((w) => w.records));
          for (const w of pack) w.resolve();
        } catch (err) {
          for (const w of pack) w.reject(err);
        }
      }
    } finally {
      this.running--;
    }
  }
}

// Whole chunks, in the order given, into packs of about a `spread`-th of the group each (so a
// large fetch still spreads over `concurrency` transactions at once), never under
// MIN_PACK_RECORDS (a fetch of a few events is one transaction) nor over `maxRecords`.
const MIN_PACK_RECORDS = 10;

function packChunks(group: Waiting[], maxRecords: number, spread: number): Waiting[][] {
  const total = group.reduce((n, w) => n + w.records.length, 0);
  const target = Math.min(maxRecords, Math.max(MIN_PACK_RECORDS, Math.ceil(total / spread)));
  const packs: Waiting[][] = [];
  let pack: Waiting[] = [];
  let size = 0;
  for (const w of group) {
    if (pack.length > 0 && size + w.records.length > target) {
      packs.push(pack);
      pack = [];
      size = 0;
    }
    pack.push(w);
    size += w.records.length;
  }
  if (pack.length > 0) packs.push(pack);
  return packs;
}
