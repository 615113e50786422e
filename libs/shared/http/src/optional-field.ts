import { ValidateIf } from 'class-validator';

// An optional body field: it may be left out, but when present it must be valid. class-validator's
// @IsOptional() also lets `null` through to code that does not expect it; JSON null is a 400 here
// unless a DTO says otherwise.
export const OptionalField = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);
