import { FastifyReply } from 'fastify';

import { PROBLEM_CONTENT_TYPE, ProblemException } from '@onramp/http';

const TIMEOUT_CODES = new Set([
  'FST_REPLY_FROM_TIMEOUT',
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
  'FST_REPLY_FROM_HTTP_REQUEST_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

interface CodedError {
  code?: unknown;
  cause?: unknown;
  statusCode?: unknown;
}

export function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    const { code, cause } = cur as CodedError;
    if (typeof code === 'string') codes.push(code);
    cur = cause;
  }
  return codes;
}

export const upstreamTimeout = (): ProblemException =>
  new ProblemException(504, 'the upstream service did not answer in time', { title: 'Gateway Timeout' });

// The upstream answered too slowly -> 504; could not be reached at all (refused, DNS, connect
// timeout, reset before a response) -> 503. Never the upstream's internals in the body.
export function upstreamProblem(err: unknown): ProblemException {
  const codes = codesOf(err);
  if (codes.some((c) => TIMEOUT_CODES.has(c))) return upstreamTimeout();
  if (codes.includes('FST_REPLY_FROM_BAD_GATEWAY')) {
    return new ProblemException(502, 'the upstream service sent an invalid response');
  }
  return new ProblemException(503, 'the upstream service is unavailable; retry later', {
    headers: { 'Retry-After': '1' },
  });
}

// Sent directly (not through sendProblem, which logs a stack for every 5xx): an unreachable
// upstream is an operational condition, logged once as a warning by the caller.
export function replyUpstreamProblem(reply: FastifyReply, problem: ProblemException, path: string): void {
  void reply
    .status(problem.getStatus())
    .headers(problem.extras.headers ?? {})
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .send(problem.toBody(path));
}
