export const PROBES = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const;
export type ProbeId = (typeof PROBES)[number];

export interface BenchOptions {
  smoke: boolean;
  distributed: boolean;
  only: Set<ProbeId>;
  durationS?: number; // overrides the length of the timed probes (P1 per side, P2's pacing)
  p2Rate?: number; // P2's credits per second (default 50): the latency curve below the target's rate
  portOffset: number;
  cpuProf: boolean; // profile the platform into bench/results/ (embedded: its one process; distributed: each app too)
  countStatements: boolean; // Postgres statements and CPU ms per operation (embedded mode only)
  nodeFlags: string[]; // more flags for the embedded platform's node process (--trace-gc, V8 sizes)
}

export const BENCH_USAGE =
  'npm run bench -- [--smoke] [--distributed] [--only P1,P3] [--duration <s>] [--p2-rate <n>] [--port-offset <n>] [--cpu-prof] [--count-statements] [--node-flags "<flags>"]';

export function parseBenchOptions(argv: string[]): BenchOptions {
  const opts: BenchOptions = {
    smoke: false,
    distributed: false,
    only: new Set(PROBES),
    portOffset: Number(process.env.BENCH_PORT_OFFSET ?? 22500),
    cpuProf: false,
    countStatements: false,
    nodeFlags: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value\nusage: ${BENCH_USAGE}`);
      return v;
    };
    if (arg === '--smoke') opts.smoke = true;
    else if (arg === '--distributed') opts.distributed = true;
    else if (arg === '--cpu-prof') opts.cpuProf = true;
    else if (arg === '--count-statements') opts.countStatements = true;
    else if (arg === '--only') {
      const ids = value()
        .toUpperCase()
        .split(',')
        .map((s) => s.trim());
      const bad = ids.filter((id) => !(PROBES as readonly string[]).includes(id));
      if (bad.length) throw new Error(`unknown probe(s) ${bad.join(', ')}; known: ${PROBES.join(', ')}`);
      opts.only = new Set(ids as ProbeId[]);
    } else if (arg === '--duration') {
      opts.durationS = Number(value());
      if (!(opts.durationS > 0)) throw new Error(`--duration wants seconds > 0\nusage: ${BENCH_USAGE}`);
    } else if (arg === '--p2-rate') {
      opts.p2Rate = Number(value());
      if (!(opts.p2Rate > 0))
        throw new Error(`--p2-rate wants credits per second > 0\nusage: ${BENCH_USAGE}`);
    } else if (arg === '--port-offset') opts.portOffset = Number(value());
    else if (arg === '--node-flags') opts.nodeFlags = value().split(/\s+/).filter(Boolean);
    else throw new Error(`unknown argument ${arg}\nusage: ${BENCH_USAGE}`);
  }
  // Distributed, each app is a process of its own the counter is not loaded into.
  if (opts.countStatements && opts.distributed)
    throw new Error('--count-statements counts in the embedded platform only (not with --distributed)');
  // Distributed, the apps are forked by the launcher, which does not pass them on.
  if (opts.nodeFlags.length && opts.distributed)
    throw new Error('--node-flags applies to the embedded platform only (not with --distributed)');
  return opts;
}
