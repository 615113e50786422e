import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiParam, ApiResponse, getSchemaPath, OpenAPIObject } from '@nestjs/swagger';

import { FieldError, ProblemBody, SharedProblemTypes, titleFor } from '@onramp/http';

import { FieldErrorResponse, PROBLEM_JSON, ProblemResponse } from './problem.response';

export type HeadersObject = NonNullable<NonNullable<OpenAPIObject['components']>['headers']>;

// The problem type each status gets from the helpers of libs/shared/http problem.exception.ts.
const TYPES: Record<number, string> = {
  400: SharedProblemTypes.Validation,
  401: SharedProblemTypes.Unauthorized,
  404: SharedProblemTypes.NotFound,
  409: SharedProblemTypes.Conflict,
  422: SharedProblemTypes.BusinessRule,
};

export interface ProblemResponseOptions {
  headers?: HeadersObject;
  // The example body: what the service really sends in this case.
  type?: string;
  detail?: string;
  errors?: FieldError[];
}

// One error status of an operation: an application/problem+json body, with an example.
export function ApiProblemResponse(
  status: number,
  description: string,
  opts: ProblemResponseOptions = {},
): MethodDecorator & ClassDecorator {
  const example: ProblemBody = {
    type: opts.type ?? TYPES[status] ?? 'about:blank',
    title: titleFor(status),
    status,
    detail: opts.detail ?? description,
    ...(opts.errors ? { errors: opts.errors } : {}),
  };
  return applyDecorators(
    ApiExtraModels(ProblemResponse, FieldErrorResponse),
    ApiResponse({
      status,
      description,
      ...(opts.headers ? { headers: opts.headers } : {}),
      content: { [PROBLEM_JSON]: { schema: { $ref: getSchemaPath(ProblemResponse) }, example } },
    }),
  );
}

// 400 for a body that fails validation: one `errors` entry per bad field.
export const ApiValidationProblem = (example: FieldError) =>
  ApiProblemResponse(400, 'The request has invalid fields (listed in `errors`).', {
    detail: 'the request has invalid fields',
    errors: [example],
  });

// 400 for a malformed uuid in the path.
export const ApiUuidParamProblem = (param: string, detail = `${param} must be a UUID`) =>
  ApiProblemResponse(400, `\`${param}\` is not a UUID.`, {
    detail,
    errors: [{ field: param, message: detail }],
  });

// What any endpoint with a body can answer before it reads the body.
export const ApiJsonBodyProblems = (accepted = '`application/json`') =>
  applyDecorators(
    ApiProblemResponse(413, 'The body is larger than 1 MiB.', { detail: 'request body is too large' }),
    ApiProblemResponse(415, `The body is not ${accepted}.`, {
      detail: 'unsupported content type; send application/json',
    }),
  );

// A uuid in the path, described for the caller (where it comes from). Its 400 is ApiUuidParamProblem,
// listed with the endpoint's other problems.
export const ApiUuidPathParam = (name: string, description: string) =>
  ApiParam({ name, description, schema: { type: 'string', format: 'uuid' } });
