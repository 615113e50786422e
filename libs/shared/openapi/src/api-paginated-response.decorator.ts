import { applyDecorators, Type } from '@nestjs/common';
import { ApiOkResponse, ApiQuery } from '@nestjs/swagger';

import { MAX_OFFSET, MAX_PAGE_SIZE } from '@onramp/http';

import { ApiProblemResponse } from './api-problem-response.decorator';

// A list endpoint (libs/shared/http pagination.ts): limit/offset in, a JSON array newest first out,
// with the total count and RFC 8288 links in headers.
export function ApiPaginatedResponse(
  item: Type<unknown>,
  opts: { description: string; path: string },
): MethodDecorator {
  const link = (rel: string, offset: number) => `<${opts.path}?limit=50&offset=${offset}>; rel="${rel}"`;
  return applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      description: `Maximum number of items returned (1 to ${MAX_PAGE_SIZE}).`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: MAX_PAGE_SIZE },
    }),
    ApiQuery({
      name: 'offset',
      required: false,
      description: `Number of items to skip (0 to ${MAX_OFFSET}).`,
      schema: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
    }),
    ApiOkResponse({
      description: `${opts.description} A JSON array, newest first.`,
      type: item,
      isArray: true,
      headers: {
        'X-Total-Count': {
          description: 'Number of items in the whole list.',
          schema: { type: 'integer', minimum: 0, example: 120 },
        },
        Link: {
          description:
            'RFC 8288 links to the `first`, `prev` (when there is one), `next` (when there is one) and `last` pages.',
          schema: {
            type: 'string',
            example: [link('first', 0), link('next', 50), link('last', 100)].join(', '),
          },
        },
      },
    }),
    ApiProblemResponse(
      400,
      `\`limit\` is not an integer from 1 to ${MAX_PAGE_SIZE}, or \`offset\` is not one from 0 to ${MAX_OFFSET}.`,
      {
        detail: 'the request has invalid fields',
        errors: [{ field: 'limit', message: 'limit must be an integer between 1 and 50' }],
      },
    ),
  );
}
