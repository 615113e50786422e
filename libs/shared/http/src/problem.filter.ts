import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';

import { ProblemBody, ProblemException, titleFor } from './problem.exception';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

// Maps anything thrown to problem+json; unknown errors become a 500 without internals in the body.
export function toProblem(
  err: unknown,
  instance: string,
): { body: ProblemBody; headers: Record<string, string> } {
  if (err instanceof ProblemException) {
    return { body: err.toBody(instance), headers: err.extras.headers ?? {} };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    return {
      body: { type: 'about:blank', title: titleFor(status), status, detail: err.message, instance },
      headers,
    };
  }
  const f = err as FastifyLikeError;
  if (typeof f?.statusCode === 'number' && f.statusCode >= 400 && f.statusCode < 500) {
    const detail =
      f.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'request body is too large'
        : f.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'unsupported content type; send application/json'
          : f.statusCode === 400
            ? `malformed request: ${f.message ?? 'invalid body'}`
            : (f.message ?? titleFor(f.statusCode));
    return {
      body: { type: 'about:blank', title: titleFor(f.statusCode), status: f.statusCode, detail, instance },
      headers: {},
    };
  }
  return {
    body: { type: 'about:blank', title: titleFor(500), status: 500, detail: 'internal error', instance },
    headers: {},
  };
}

export function sendProblem(reply: FastifyReply, err: unknown, url: string): void {
  const { body, headers } = toProblem(err, url);
  if (body.status >= 500) new Logger('ProblemFilter').error(err instanceof Error ? err.stack : String(err));
  void reply.status(body.status).headers(headers).header('content-type', PROBLEM_CONTENT_TYPE).send(body);
}

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    sendProblem(reply, exception, request.url.split('?')[0]);
  }
}
