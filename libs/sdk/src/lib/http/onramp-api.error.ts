import { FieldError, ProblemDetails } from '../models/problem.types';

// Any non-2xx answer of the API. `problem` is the RFC 9457 body, or one built from the status when
// the answer was not problem+json (e.g. a proxy's error page).
export class OnrampApiError extends Error {
  override readonly name = 'OnrampApiError';
  readonly type: string;
  readonly title: string;
  readonly detail?: string;
  readonly errors: FieldError[];

  constructor(
    readonly status: number,
    readonly problem: ProblemDetails,
    readonly headers: Headers,
    readonly request: { method: string; url: string },
  ) {
    super(
      `${request.method} ${request.url}: ${status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`,
    );
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isFieldError = (v: unknown): v is FieldError =>
  isRecord(v) && typeof v['field'] === 'string' && typeof v['message'] === 'string';

// Reads whatever the server sent into a ProblemDetails, trusting only well-typed members.
export function toProblem(status: number, statusText: string, body: unknown): ProblemDetails {
  const b = isRecord(body) ? body : {};
  const text = (key: string): string | undefined =>
    typeof b[key] === 'string' ? (b[key] as string) : undefined;
  const errors = Array.isArray(b['errors']) ? b['errors'].filter(isFieldError) : undefined;
  return {
    type: text('type') ?? 'about:blank',
    title: text('title') ?? (statusText || `HTTP ${status}`),
    status,
    ...(text('detail') !== undefined ? { detail: text('detail') } : {}),
    ...(text('instance') !== undefined ? { instance: text('instance') } : {}),
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}
