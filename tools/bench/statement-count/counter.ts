// Counts the Postgres statements a process sends, by normalised text and by the pool's
// application_name (each service names its pool `onramp-<schema>`), beside the process's CPU time.
// Loaded into the bench's platform process by `npm run bench -- --count-statements` (hook.ts); the
// bench takes a snapshot at the start and end of each probe's window and reports the difference.

export interface CounterSnapshot {
  // `<application_name>\t<normalised text>` -> statements sent so far
  statements: Record<string, number>;
  cpuUs: number; // user + system CPU of the whole process, microseconds
}

export interface StatementCount {
  app: string;
  text: string;
  count: number;
}

export interface WindowCounts {
  statements: number;
  cpuMs: number;
  byText: StatementCount[]; // most frequent first
}

const SEP = '\t';
const MAX_TEXT = 400;

// One text per statement shape: placeholders, literals and repeated VALUES tuples collapsed, so a
// statement sent with other parameters or another batch size counts as the same statement.
export function normaliseSql(sql: string): string {
  let s = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$\d+/g, '$')
    .replace(/(?<![\w$."])\d+(?:\.\d+)?\b/g, '?')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim();
  // VALUES ($,$),($,$) ... and IN ($,$,$): one tuple / one element stands for any number
  s = s.replace(/(\([^()]*\))(?:,\1)+/g, '$1,…').replace(/\bIN\(([$?])(?:,\1)*\)/gi, 'IN($1…)');
  s = s.replace(/^(begin|start transaction|commit|rollback)\b/i, (k) => k.toUpperCase());
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s;
}

// The text of what pg's Client.query was given: a string, a config object ({ text }), or a
// submittable such as a cursor (which carries `text` too).
export function statementText(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { text?: unknown }).text === 'string')
    return (arg as { text: string }).text;
  return undefined;
}

export class StatementCounter {
  private readonly counts = new Map<string, number>();
  // statements repeat verbatim (their values are parameters): normalise each text once
  private readonly keys = new Map<string, string>();

  constructor(private readonly cpuUs: () => number = cpuNow) {}

  count(app: string, sql: string): void {
    const cacheKey = app + SEP + sql;
    let key = this.keys.get(cacheKey);
    if (key === undefined) {
      key = app + SEP + normaliseSql(sql);
      if (this.keys.size < 50_000) this.keys.set(cacheKey, key);
    }
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  snapshot(): CounterSnapshot {
    return { statements: Object.fromEntries(this.counts), cpuUs: this.cpuUs() };
  }
}

function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

// What happened between two snapshots of the same process.
export function diffSnapshots(start: CounterSnapshot, end: CounterSnapshot): WindowCounts {
  const byText: StatementCount[] = [];
  let statements = 0;
  for (const [key, n] of Object.entries(end.statements)) {
    const count = n - (start.statements[key] ?? 0);
    if (count <= 0) continue;
    statements += count;
    const at = key.indexOf(SEP);
    byText.push({ app: key.slice(0, at), text: key.slice(at + 1), count });
  }
  byText.sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
  return { statements, cpuMs: (end.cpuUs - start.cpuUs) / 1000, byText };
}

// The global the hook installs its counter under, so the host reads it without importing the hook.
export const COUNTER_GLOBAL = Symbol.for('onramp.bench.statementCounter');

export function installedCounter(): StatementCounter | undefined {
  return (globalThis as Record<symbol, unknown>)[COUNTER_GLOBAL] as StatementCounter | undefined;
}
