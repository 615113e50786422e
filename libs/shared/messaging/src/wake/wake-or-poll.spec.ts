import { RoundOutcome, WakeOrPoll } from './wake-or-poll';

const HOUR = 3_600_000; // a poll that never fires within a test: only wake() can start a round

function loop(round: () => Promise<RoundOutcome>, onFailure = jest.fn()): WakeOrPoll {
  return new WakeOrPoll({ round, pollMs: HOUR, failureDelayMs: () => HOUR, onFailure });
}

function until(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const tick = (): void => (check() ? resolve() : void setImmediate(tick));
    tick();
  });
}

describe('WakeOrPoll', () => {
  it('runs again at once while rounds find work, then sleeps until woken', async () => {
    let rounds = 0;
    const l = loop(async () => ({ busy: ++rounds < 3 }));
    l.start();
    await until(() => rounds === 3);
    await new Promise((r) => setImmediate(r));
    expect(rounds).toBe(3);
    l.wake();
    await until(() => rounds === 4);
    await l.stop();
  });

  it('keeps a wake-up that arrives while a round runs', async () => {
    let rounds = 0;
    let l: WakeOrPoll | undefined = undefined;
    l = loop(async () => {
      rounds++;
      if (rounds === 1) l?.wake(); // work committed while this round was already past its query
      return { busy: false };
    });
    l.start();
    await until(() => rounds === 2);
    await l.stop();
  });

  it('waits out a failure backoff instead of running on every wake-up, and stop() ends it', async () => {
    let rounds = 0;
    const onFailure = jest.fn();
    const l = loop(async () => {
      rounds++;
      throw new Error('database down');
    }, onFailure);
    l.start();
    await until(() => onFailure.mock.calls.length === 1);
    l.wake();
    l.wake();
    await new Promise((r) => setImmediate(r));
    expect(rounds).toBe(1);
    await l.stop();
    expect(onFailure).toHaveBeenCalledWith(expect.any(Error), 1);
  });

  it('looks again after recheckMs when it is shorter than the poll', async () => {
    let rounds = 0;
    const l = new WakeOrPoll({
      round: async () => ({ busy: false, recheckMs: rounds++ === 0 ? 1 : HOUR }),
      pollMs: HOUR,
      failureDelayMs: () => HOUR,
      onFailure: jest.fn(),
    });
    l.start();
    await until(() => rounds === 2);
    await l.stop();
  });
});
