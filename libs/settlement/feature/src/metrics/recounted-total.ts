// A total that costs a read of every row it counts (the CONFIRMED settlements: every payout ever
// made) and is asked for at every scrape of the metrics. A count that took `costlyMs` or more is
// taken again only once `factor` times its duration has passed, so the scrapes spend about
// 1 / factor of their time on it whatever the table's size, and report that count until then: one of
// 200 ms (a million settlements) every 20 s. A cheaper count is taken at every scrape, so a small
// install (and a test that scrapes right after a payout) always reads the table as it is. Scrapes
// that arrive while a count runs share it; a count that fails fails their scrape, as any read of
// the metrics does, and the next scrape counts again.
export class RecountedTotal {
  private last?: { value: number; at: number; tookMs: number };
  private running?: Promise<number>;

  constructor(
    private readonly count: () => Promise<number>,
    private readonly factor = 100,
    private readonly costlyMs = 50,
    private readonly now: () => number = Date.now,
  ) {}

  read(): Promise<number> {
    const last = this.last;
    const costly = last !== undefined && last.tookMs >= this.costlyMs;
    if (costly && this.now() - last.at < this.factor * last.tookMs) return Promise.resolve(last.value);
    this.running ??= this.recount().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async recount(): Promise<number> {
    const started = this.now();
    const value = await this.count();
    const at = this.now();
    this.last = { value, at, tookMs: at - started };
    return value;
  }
}
