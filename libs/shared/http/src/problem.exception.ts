import { HttpException } from '@nestjs/common';

import type { FieldError, ProblemDetails } from '@onramp/sdk';

import { SharedProblemTypes } from './problem-types';

// RFC 9457 problem+json as the SDK publishes it to merchants (it ships standalone, so it cannot import
// ours): a body the SDK does not describe fails the typecheck here.
export type { FieldError };
export type ProblemBody = ProblemDetails;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export const titleFor = (status: number): string => TITLES[status] ?? 'Error';

// The one error type of our HTTP edges; rendered as RFC 9457 application/problem+json.
export class ProblemException extends HttpException {
  constructor(
    status: number,
    detail?: string,
    readonly extras: {
      type?: string;
      title?: string;
      errors?: FieldError[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail ?? titleFor(status), status);
  }

  toBody(instance?: string): ProblemBody {
    const status = this.getStatus();
    return {
      type: this.extras.type ?? 'about:blank',
      title: this.extras.title ?? titleFor(status),
      status,
      detail: this.message,
      ...(instance ? { instance } : {}),
      ...(this.extras.errors ? { errors: this.extras.errors } : {}),
    };
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) =>
  new ProblemException(400, detail, { type: SharedProblemTypes.Validation, errors });
export const notFound = (detail = 'resource not found') =>
  new ProblemException(404, detail, { type: SharedProblemTypes.NotFound });
export const unprocessable = (detail: string, type: string = SharedProblemTypes.BusinessRule) =>
  new ProblemException(422, detail, { type });
export const conflict = (detail: string) =>
  new ProblemException(409, detail, { type: SharedProblemTypes.Conflict });
export const unauthorized = (detail = 'a valid Bearer token is required') =>
  new ProblemException(401, detail, {
    type: SharedProblemTypes.Unauthorized,
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
