import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';

import { ApiProblemResponse } from './api-problem-response.decorator';

// Names of the security schemes in components.securitySchemes (tools/openapi declares them).
export const BEARER_SCHEME = 'bearer';
export const BASIC_SCHEME = 'basic';

// Every merchant endpoint: a Bearer access token from POST /auth/token, 401 when it is unusable.
export const ApiMerchantAuth = () =>
  applyDecorators(
    ApiBearerAuth(BEARER_SCHEME),
    ApiProblemResponse(
      401,
      'The Bearer token is missing, expired, forged or of the wrong type. Fetch a new token with `POST /auth/token` and retry.',
      {
        headers: {
          'WWW-Authenticate': {
            description: 'Always `Bearer`.',
            schema: { type: 'string', example: 'Bearer' },
          },
        },
        detail: 'a valid Bearer token is required',
      },
    ),
  );
