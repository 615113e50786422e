import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';

import { compileDto, DtoBuilder } from './compiled-dto';
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
    return this.compiled(value, metadata) ?? super.transform(value, metadata);
  }

  // A valid plain input of a class that compiles is built without the pipe (see compiled-dto.ts);
  // undefined sends it through the pipe, which also answers every refusal.
  private compiled(value: unknown, { type, metatype }: ArgumentMetadata): object | undefined {
    if (type === 'custom' || typeof metatype !== 'function' || !isPlainObject(value)) return undefined;
    let build = dtoBuilders.get(metatype);
    if (build === undefined) {
      build = NOT_A_DTO.has(metatype) ? null : (compileDto(metatype as new () => object) ?? null);
      dtoBuilders.set(metatype, build);
    }
    return build?.(value);
  }
}

const dtoBuilders = new WeakMap<object, DtoBuilder | null>();
// What ValidationPipe does not validate (toValidate): a value of these types is passed on as it is.
const NOT_A_DTO = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
