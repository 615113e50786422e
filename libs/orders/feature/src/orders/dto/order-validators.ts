import { registerDecorator, ValidationArguments } from 'class-validator';

import { checkEurAmountFormat, checkRecipientAddress } from '@onramp/orders-domain';

// Shape of the amount: a JSON number (as the merchant contract says), > 0, at most 2 decimals;
// bounds come later. A string such as "10" is refused: strict types, one way to send an amount.
export function IsEurAmountInput(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isEurAmountInput',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'number' && checkEurAmountFormat(value).ok,
        defaultMessage: (args?: ValidationArguments) => {
          if (args?.value === undefined) return 'amount is required';
          if (typeof args.value !== 'number') return 'amount must be a JSON number such as 10.5';
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
