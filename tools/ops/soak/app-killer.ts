import { AppName, PlatformHandle } from '@onramp/platform-runner';

import { SeededRandom } from './seeded-random';

export interface KillRecord {
  app: AppName;
  at: number;
  downMs: number; // from SIGKILL until the restarted app reported ready
}

export interface KillerResult {
  kills: KillRecord[];
  error?: string; // an app that would not come back: the killer gave up
}

export interface AppKiller {
  count(): number; // kills so far
  stop(): Promise<KillerResult>; // waits for the victim of the moment to be back up
}

const START_ATTEMPTS = 3;

// Every `everyMs` SIGKILLs a random app (no shutdown hook runs: in-flight requests, open
// transactions and uncommitted Kafka offsets are cut), waits `downMs`, starts it again and waits
// until it is ready. One app is down at a time; the next kill comes `everyMs` after the previous one
// or as soon as its victim is back, whichever is later.
export function startAppKiller(
  platform: PlatformHandle,
  opts: {
    everyMs: number;
    downMs: number;
    victims: AppName[];
    rng: SeededRandom;
    log: (line: string) => void;
  },
): AppKiller {
  const kills: KillRecord[] = [];
  let stopping = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async (): Promise<void> => {
    if (opts.everyMs === 0 || opts.victims.length === 0) return;
    await sleep(opts.everyMs);
    while (!stopping) {
      const app = opts.rng.pick(opts.victims);
      const at = Date.now();
      await platform.killApp(app, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, opts.downMs)); // never cut short: the app must come back
      await startAgain(platform, app, opts.log);
      const record = { app, at, downMs: Date.now() - at };
      kills.push(record);
      opts.log(`killed ${app} (down ${record.downMs} ms), kill #${kills.length}`);
      if (!stopping) await sleep(Math.max(0, at + opts.everyMs - Date.now()));
    }
  };
  const running = loop().then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );

  return {
    count: () => kills.length,
    async stop() {
      stopping = true;
      wake?.();
      const error = await running;
      return { kills, ...(error ? { error } : {}) };
    },
  };
}

async function startAgain(
  platform: PlatformHandle,
  app: AppName,
  log: (line: string) => void,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await platform.startApp(app);
    } catch (err) {
      if (attempt >= START_ATTEMPTS) throw err;
      log(`${app} did not start (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); again`);
      await platform.killApp(app, 'SIGKILL');
    }
  }
}
