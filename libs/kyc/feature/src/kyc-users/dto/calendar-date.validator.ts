import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

import { isBirthDate, isCalendarDate } from '@onramp/kyc-domain';

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

// A birth date (isBirthDate): a real date, before today (UTC) and not before 1900.
export function IsDateOfBirth(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isDateOfBirth',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => isBirthDate(value, new Date().toISOString().slice(0, 10)),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be a real date in the past in the format YYYY-MM-DD`,
      },
    });
}
