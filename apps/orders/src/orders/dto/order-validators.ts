import { registerDecorator, ValidationArguments } from 'class-validator';

import { checkEurAmountFormat } from '@onramp/orders-domain';

import { checkRecipientAddress } from '../recipient-address';

// Shape of the amount (number or decimal string, > 0, at most 2 decimals); bounds come later.
export function IsEurAmountInput(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isEurAmountInput',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => checkEurAmountFormat(value).ok,
        defaultMessage: (args?: ValidationArguments) => {
          if (args?.value === undefined) return 'amount is required';
          const check = checkEurAmountFormat(args.value);
          return check.ok ? 'amount is invalid' : check.message;
        },
      },
    });
}

export function IsRecipientAddress(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isRecipientAddress',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => checkRecipientAddress(value).ok,
        defaultMessage: (args?: ValidationArguments) => {
          if (args?.value === undefined) return `${args?.property} is required`;
          const check = checkRecipientAddress(args?.value, args?.property);
          return check.ok ? `${args?.property} is invalid` : check.message;
        },
      },
    });
}
