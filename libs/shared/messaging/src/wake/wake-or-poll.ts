export interface RoundOutcome {
  // The round found work: run another at once (a backlog is drained without sleeping in between).
  busy: boolean;
  // Look again after this long instead of the safety-net poll, e.g. while transactions wait for a receipt.
  recheckMs?: number;
}

export interface WakeOrPollOptions {
  round: () => Promise<RoundOutcome>;
  pollMs: number; // the safety net: how long an idle loop sleeps when nobody wakes it
  failureDelayMs: (failures: number) => number; // failures >= 1
  onFailure: (err: unknown, failures: number) => void;
}

// One background loop for a stage that is told about new work in-process (wake(), called after
// the commit that created the work) and polls only as a safety net, for work committed elsewhere
// (another process, a due retry). A wake-up that arrives while a round runs is kept: the loop runs
// again at once instead of sleeping a full interval on work it was told about. After a failure the
// loop waits out its backoff whatever wakes it, so an outage is not hammered by every commit.
export class WakeOrPoll {
  private running = false;
  private loop?: Promise<void>;
  private woken = false;
  private interrupt?: () => void; // ends the idle wait; set only while idle
  private stopBackoff?: () => void; // ends a failure's backoff; only stop() calls it

  constructor(private readonly opts: WakeOrPollOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.interrupt?.();
    this.stopBackoff?.();
    await this.loop;
  }

  wake(): void {
    this.woken = true;
    this.interrupt?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      this.woken = false;
      let outcome: RoundOutcome;
      try {
        outcome = await this.opts.round();
        failures = 0;
      } catch (err) {
        failures++;
        this.opts.onFailure(err, failures);
        await this.backoff(this.opts.failureDelayMs(failures));
        continue;
      }
      if (!this.running) break;
      if (outcome.busy || this.woken) continue;
      await this.idle(Math.min(this.opts.pollMs, outcome.recheckMs ?? this.opts.pollMs));
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.interrupt = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interrupt = done;
      if (this.woken || !this.running) done();
    });
  }

  // Interrupted only by stop().
  private backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.stopBackoff = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.stopBackoff = done;
      if (!this.running) done();
    });
  }
}
