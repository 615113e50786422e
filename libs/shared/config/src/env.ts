// Config is read once at boot and validated; a bad variable stops the process with its name.
export class ConfigError extends Error {}

type Parser<T> = (raw: string | undefined, name: string) => T;

export interface EnvSpec {
  [name: string]: Parser<unknown>;
}

export type EnvOf<S extends EnvSpec> = { [K in keyof S]: S[K] extends Parser<infer T> ? T : never };

export function str(opts: { default?: string; optional?: boolean } = {}): Parser<string> {
  return (raw, name) => {
    const value = raw === undefined || raw === '' ? opts.default : raw;
    if (value === undefined) {
      if (opts.optional) return '';
      throw new ConfigError(`${name} is required`);
    }
    return value;
  };
}

export function int(opts: { default?: number; min?: number; max?: number } = {}): Parser<number> {
  return (raw, name) => {
    if (raw === undefined || raw === '') {
      if (opts.default === undefined) throw new ConfigError(`${name} is required`);
      return opts.default;
    }
    if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
    const n = Number(raw);
    if (opts.min !== undefined && n < opts.min) throw new ConfigError(`${name} must be >= ${opts.min}`);
    if (opts.max !== undefined && n > opts.max) throw new ConfigError(`${name} must be <= ${opts.max}`);
    return n;
  };
}

export function bool(opts: { default?: boolean } = {}): Parser<boolean> {
  return (raw, name) => {
    if (raw === undefined || raw === '') {
      if (opts.default === undefined) throw new ConfigError(`${name} is required`);
      return opts.default;
    }
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    throw new ConfigError(`${name} must be a boolean, got "${raw}"`);
  };
}

export function oneOf<T extends string>(values: readonly T[], opts: { default?: T } = {}): Parser<T> {
  return (raw, name) => {
    const value = raw === undefined || raw === '' ? opts.default : raw;
    if (value === undefined) throw new ConfigError(`${name} is required`);
    if (!(values as readonly string[]).includes(value)) {
      throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${value}"`);
    }
    return value as T;
  };
}

export function decimalString(opts: { default?: string } = {}): Parser<string> {
  return (raw, name) => {
    const value = raw === undefined || raw === '' ? opts.default : raw;
    if (value === undefined) throw new ConfigError(`${name} is required`);
    if (!/^\d+(\.\d+)?$/.test(value)) throw new ConfigError(`${name} must be a decimal number, got "${value}"`);
    return value;
  };
}

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

// A duration such as 7d, 12h, 30m, 45s or 500ms (a bare number is seconds), in milliseconds.
export function duration(opts: { default?: string; minMs?: number } = {}): Parser<number> {
  return (raw, name) => {
    const value = (raw === undefined || raw === '' ? opts.default : raw)?.trim();
    if (value === undefined) throw new ConfigError(`${name} is required`);
    const m = /^(\d+)(ms|s|m|h|d)?$/.exec(value);
    if (!m) throw new ConfigError(`${name} must be a duration like 7d, 12h, 30m or 45s, got "${value}"`);
    const ms = Number(m[1]) * DURATION_UNITS_MS[(m[2] ?? 's') as keyof typeof DURATION_UNITS_MS];
    if (opts.minMs !== undefined && ms < opts.minMs)
      throw new ConfigError(`${name} must be at least ${opts.minMs} ms, got "${value}"`);
    return ms;
  };
}

// Reads every variable of the spec; collects all problems so an operator fixes them in one go.
export function loadEnv<S extends EnvSpec>(spec: S, source: NodeJS.ProcessEnv = process.env): EnvOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, parse] of Object.entries(spec)) {
    try {
      out[name] = parse(source[name], name);
    } catch (err) {
      if (err instanceof ConfigError) problems.push(err.message);
      else throw err;
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return out as EnvOf<S>;
}
