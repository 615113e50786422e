import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';

import { badRequest, FieldError } from './problem.exception';

// One { field, message } per failed constraint, nested fields as a.b.c.
export function fieldErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...fieldErrors(e.children ?? [], field)];
  });
}

// Validates DTOs and answers 400 problem+json with one entry per bad field.
export class ProblemValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      forbidUnknownValues: true,
      exceptionFactory: (errors) => badRequest('the request has invalid fields', fieldErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
        throw badRequest('the request body must be a JSON object');
      }
    }
    return super.transform(value, metadata);
  }
}
