import { Transform } from 'class-transformer';

// Only strings are touched: anything else reaches the validators as sent and fails there.
export const trimmed = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

export const toUpperTrimmed = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toUpperCase() : value,
  );

// "+49 151 1234-5678" and "+49 (151) 12345678" are the same number as "+4915112345678".
export const compactPhone = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.replace(/[\s\-()]/g, '') : value,
  );
