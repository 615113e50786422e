import { ageOn, screenApplicant } from './kyc-screening';

const now = new Date('2025-06-15T10:00:00Z');

describe('ageOn', () => {
  it('counts full years, birthday included', () => {
    expect(ageOn('2007-06-15', '2025-06-15')).toBe(18);
    expect(ageOn('2007-06-16', '2025-06-15')).toBe(17);
    expect(ageOn('1980-01-01', '2025-06-15')).toBe(45);
  });

  it('treats a 29 February birthday as reached on 1 March in common years', () => {
    expect(ageOn('2004-02-29', '2022-02-28')).toBe(17);
    expect(ageOn('2004-02-29', '2022-03-01')).toBe(18);
  });
});

describe('screenApplicant', () => {
  it('approves an adult without a document in sandbox', () => {
    expect(screenApplicant({ dateOfBirth: '1990-04-01' }, now, 'sandbox')).toEqual({ status: 'APPROVED' });
  });

  it('approves on the 18th birthday and rejects the day before', () => {
    expect(screenApplicant({ dateOfBirth: '2007-06-15' }, now, 'sandbox').status).toBe('APPROVED');
    expect(screenApplicant({ dateOfBirth: '2007-06-16' }, now, 'sandbox')).toEqual({
      status: 'REJECTED',
      statusReason: 'applicant is under 18',
    });
  });

  it('rejects an expired document; a document expiring today is still valid', () => {
    expect(
      screenApplicant({ dateOfBirth: '1990-04-01', document: { expiryDate: '2025-06-14' } }, now, 'sandbox'),
    ).toEqual({
      status: 'REJECTED',
      statusReason: 'identity document has expired',
    });
    expect(
      screenApplicant({ dateOfBirth: '1990-04-01', document: { expiryDate: '2025-06-15' } }, now, 'sandbox')
        .status,
    ).toBe('APPROVED');
  });

  it('never approves automatically in production mode', () => {
    expect(screenApplicant({ dateOfBirth: '1990-04-01' }, now, 'production').status).toBe('PENDING_REVIEW');
    expect(screenApplicant({ dateOfBirth: '2010-01-01' }, now, 'production').status).toBe('REJECTED');
  });
});
