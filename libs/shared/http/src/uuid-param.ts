import { ParseUUIDPipe } from '@nestjs/common';

import { badRequest } from './problem.exception';

// A path parameter that must be a UUID: anything else is a 400 problem naming the parameter, before
// a query could run with it.
export function uuidParam(field: string): ParseUUIDPipe {
  const message = `${field} must be a UUID`;
  return new ParseUUIDPipe({ exceptionFactory: () => badRequest(message, [{ field, message }]) });
}
