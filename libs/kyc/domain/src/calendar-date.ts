const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

// Earliest birth date accepted: older dates are typing mistakes, not applicants.
export const EARLIEST_BIRTH_DATE = '1900-01-01';

// A real date in YYYY-MM-DD (no 2023-02-30), read as a UTC calendar day.
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = YMD.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

// A birth date: a real date, before today (UTC, YYYY-MM-DD) and not before 1900.
export function isBirthDate(value: unknown, today: string): value is string {
  return isCalendarDate(value) && value >= EARLIEST_BIRTH_DATE && value < today;
}
