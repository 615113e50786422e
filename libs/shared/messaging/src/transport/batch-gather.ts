import type { ConsumedRecord } from './event-transport';

interface Waiting {
  records: ConsumedRecord[];
  resolve: () => void;
  reject: (err: unknown) => void;
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
  private readonly packs: Waiting[][] = [];
  private running = 0;

  constructor(
    private readonly handle: (records: ConsumedRecord[]) => Promise<void>,
    private readonly maxRecords: number,
    private readonly concurrency = 4,
  ) {}

  submit(records: ConsumedRecord[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ records, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // after every chunk of this tick was submitted (a fetch's eachBatch calls, an append's wake-ups)
        setImmediate(() => this.run());
      }
    });
  }

  private run(): void {
    this.scheduled = false;
    const group = this.waiting;
    this.waiting = [];
    this.packs.push(...packChunks(group, this.maxRecords, this.concurrency));
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

// Whole chunks, in the order given, into packs of about a `concurrency`-th of the group each (so a
// large fetch still spreads over `concurrency` transactions at once), never under
// MIN_PACK_RECORDS (a fetch of a few events is one transaction) nor over `maxRecords`.
const MIN_PACK_RECORDS = 10;

function packChunks(group: Waiting[], maxRecords: number, concurrency: number): Waiting[][] {
  const total = group.reduce((n, w) => n + w.records.length, 0);
  const target = Math.min(maxRecords, Math.max(MIN_PACK_RECORDS, Math.ceil(total / concurrency)));
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
