import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

// A real date in YYYY-MM-DD (no 2023-02-30), read as a UTC calendar day.
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = YMD.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => isCalendarDate(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be a real date in the format YYYY-MM-DD`,
      },
    });
}

// A birth date: a real date, before today (UTC) and not before 1900.
export function IsDateOfBirth(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isDateOfBirth',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) =>
          isCalendarDate(value) && value >= '1900-01-01' && value < new Date().toISOString().slice(0, 10),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be a real date in the past in the format YYYY-MM-DD`,
      },
    });
}
