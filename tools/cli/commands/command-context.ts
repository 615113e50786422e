import { ApiResponse, ApiTarget } from '../http/api-client';
import { Settings } from '../parse-command-line';

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface CommandContext {
  args: Record<string, string>;
  options: Record<string, string | undefined>;
  settings: Settings;
  out: Output;
}

export type CommandHandler = (ctx: CommandContext) => Promise<void>;

export function adminApi(settings: Settings): ApiTarget {
  return {
    label: 'admin API',
    baseUrl: settings.adminUrl,
    urlFlag: '--admin-url',
    urlEnv: 'ONRAMP_ADMIN_URL',
    headers: { authorization: `Bearer ${settings.adminKey ?? ''}` },
    unauthorizedHint: 'the admin API key was refused: check ADMIN_API_KEY or --admin-key',
  };
}

export function merchantApi(settings: Settings, authorization: string, unauthorizedHint: string): ApiTarget {
  return {
    label: 'merchant API',
    baseUrl: settings.baseUrl,
    urlFlag: '--base-url',
    urlEnv: 'ONRAMP_BASE_URL',
    headers: { authorization },
    unauthorizedHint,
  };
}

// JSON for scripts (exactly what --json promises), else the human rendering.
export function emit(ctx: CommandContext, json: unknown, human: () => string): void {
  ctx.out.stdout(ctx.settings.json ? `${JSON.stringify(json, null, 2)}\n` : human());
}

// ?merchantId=&status=&limit=&offset= from the list options that were given.
export function listQuery(options: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  const names: [string, string][] = [
    ['merchant', 'merchantId'],
    ['status', 'status'],
    ['limit', 'limit'],
    ['offset', 'offset'],
  ];
  for (const [option, param] of names) {
    const value = options[option];
    if (value !== undefined) query.set(param, value);
  }
  return query.size > 0 ? `?${query.toString()}` : '';
}

export interface Page<T> {
  items: T[];
  total?: number;
  limit: number;
  offset: number;
}

export function pageOf<T>(res: ApiResponse<T[]>, options: Record<string, string | undefined>): Page<T> {
  const total = res.headers.get('x-total-count');
  return {
    items: res.body,
    total: total === null ? undefined : Number(total),
    limit: Number(options.limit ?? 50),
    offset: Number(options.offset ?? 0),
  };
}
