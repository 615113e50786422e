import { eurAmountToString } from './eur-amount.validator';

describe('eurAmountToString', () => {
  it.each([
    [10, '10'],
    [10.5, '10.5'],
    [0.01, '0.01'],
    ['10.50', '10.5'],
    ['0010.00', '10'],
    [' 99.99 ', '99.99'],
  ])('accepts %p as %p', (input, expected) => expect(eurAmountToString(input)).toBe(expected));

  it.each([
    0,
    '0',
    '0.00',
    -1,
    '-1',
    10.123,
    '1.001',
    0.1 + 0.2,
    '1e3',
    1e21,
    Number.NaN,
    Infinity,
    '',
    'ten',
    null,
    true,
    {},
    [],
  ])('refuses %p', (input) => expect(eurAmountToString(input)).toBeUndefined());
});
