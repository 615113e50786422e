import { isBirthDate, isCalendarDate } from './calendar-date';

describe('isCalendarDate', () => {
  it('accepts real YYYY-MM-DD days, leap days included', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('1990-12-31')).toBe(true);
  });

  it('refuses days that do not exist and other shapes', () => {
    for (const value of [
      '2023-02-29',
      '2023-02-30',
      '2023-13-01',
      '2023-1-01',
      '01.02.2023',
      '',
      20230101,
      null,
    ]) {
      expect(isCalendarDate(value)).toBe(false);
    }
  });
});

describe('isBirthDate', () => {
  const today = '2025-06-15';

  it('accepts a real day from 1900 up to yesterday', () => {
    expect(isBirthDate('1900-01-01', today)).toBe(true);
    expect(isBirthDate('2025-06-14', today)).toBe(true);
  });

  it('refuses today, the future, before 1900 and days that do not exist', () => {
    expect(isBirthDate('2025-06-15', today)).toBe(false);
    expect(isBirthDate('2030-01-01', today)).toBe(false);
    expect(isBirthDate('1899-12-31', today)).toBe(false);
    expect(isBirthDate('1990-02-30', today)).toBe(false);
  });
});
