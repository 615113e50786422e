import { applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import { ApiJsonBodyProblems, ApiProblemResponse, BASIC_SCHEME } from '@onramp/openapi';

import { AuthProblemTypes } from '../problem-types';
import { AccessTokenResponse } from './token.response';

const NO_STORE_HEADERS = {
  'Cache-Control': { description: 'Always `no-store`.', schema: { type: 'string', example: 'no-store' } },
  Pragma: { description: 'Always `no-cache`.', schema: { type: 'string', example: 'no-cache' } },
};

// API documentation of POST /auth/token (tools/openapi builds the documents from it).
export const ApiIssueToken = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'issueToken',
      summary: 'Get an access token',
      description:
        'Exchanges the merchant credentials, sent as HTTP Basic `<MERCHANT_ID>:<MERCHANT_SECRET>`, for a Bearer token that expires after 15 minutes (OAuth 2.0 client credentials). No body is needed; a form body `grant_type=client_credentials` is accepted. Served on both hosts.',
    }),
    ApiBasicAuth(BASIC_SCHEME),
    ApiConsumes('application/x-www-form-urlencoded', 'application/json'),
    ApiBody({
      required: false,
      description: 'Optional. Only `grant_type` is read, and it must be `client_credentials`.',
      schema: {
        type: 'object',
        properties: { grant_type: { type: 'string', enum: ['client_credentials'] } },
      },
    }),
    ApiOkResponse({ description: 'The access token.', type: AccessTokenResponse, headers: NO_STORE_HEADERS }),
    ApiProblemResponse(400, 'A `grant_type` other than `client_credentials`, or a malformed body.', {
      detail: 'unsupported grant_type; only client_credentials is supported',
      errors: [{ field: 'grant_type', message: 'grant_type must be client_credentials' }],
    }),
    ApiProblemResponse(401, 'The Basic credentials are missing, malformed or wrong.', {
      headers: {
        'WWW-Authenticate': {
          description: 'The Basic challenge.',
          schema: { type: 'string', example: 'Basic realm="onramp"' },
        },
        ...NO_STORE_HEADERS,
      },
      type: AuthProblemTypes.InvalidClient,
      detail: 'invalid or missing client credentials (HTTP Basic merchantId:merchantSecret)',
    }),
    ApiJsonBodyProblems('`application/x-www-form-urlencoded` or `application/json`'),
  );
