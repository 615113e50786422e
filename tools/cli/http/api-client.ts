import { ApiError, ConnectionError, ProblemDetails } from '../cli-errors';

export const REQUEST_TIMEOUT_MS = 15_000;

// One of the two APIs the CLI talks to, with what to tell the operator when it cannot be reached.
export interface ApiTarget {
  label: string; // "admin API"
  baseUrl: string;
  urlFlag: string; // "--admin-url"
  urlEnv: string; // "ONRAMP_ADMIN_URL"
  headers: Record<string, string>;
  unauthorizedHint?: string;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

// fetch wraps the socket error: the code sits somewhere down the cause chain.
function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && code in REASONS) return code;
    if (e instanceof AggregateError && e.errors.length > 0) return errorCode(e.errors[0]);
  }
  return undefined;
}

// Only the origin is shown: a URL may carry credentials.
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function describeConnectionFailure(err: unknown, target: ApiTarget): string {
  const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
  const code = errorCode(err);
  const reason = timedOut
    ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
    : code
      ? REASONS[code]
      : err instanceof Error
        ? err.message
        : String(err);
  return (
    `cannot reach the ${target.label} at ${originOf(target.baseUrl)} (${reason}). ` +
    `Is the platform running (npm start)? Point the CLI elsewhere with ${target.urlFlag} or ${target.urlEnv}.`
  );
}

function asProblem(status: number, statusText: string, body: unknown, text: string): ProblemDetails {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const p = body as ProblemDetails;
    if (typeof p.detail === 'string' || typeof p.title === 'string') return p;
  }
  return { status, title: statusText || `HTTP ${status}`, detail: text.trim().slice(0, 300) || undefined };
}

export async function callApi<T>(
  target: ApiTarget,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiResponse<T>> {
  let res: Response;
  try {
    res = await fetch(`${target.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json, application/problem+json',
        ...target.headers,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new ConnectionError(describeConnectionFailure(err, target));
  }
  const text = await res.text().catch(() => '');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const hint = res.status === 401 ? target.unauthorizedHint : undefined;
    throw new ApiError(res.status, asProblem(res.status, res.statusText, body, text), hint);
  }
  if (body === undefined) {
    throw new ApiError(res.status, {
      status: res.status,
      detail: `the ${target.label} at ${originOf(target.baseUrl)} answered ${res.status} without JSON: is ${target.urlFlag} right?`,
    });
  }
  return { status: res.status, headers: res.headers, body: body as T };
}
