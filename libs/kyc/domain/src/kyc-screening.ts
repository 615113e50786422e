export const MINIMUM_AGE = 18;

export interface ScreeningInput {
  dateOfBirth: string; // YYYY-MM-DD
  document?: { expiryDate: string };
}

// The statuses screening can give (a subset of the KYC statuses the contracts publish).
export type ScreeningStatus = 'APPROVED' | 'REJECTED' | 'PENDING_REVIEW';

export interface ScreeningResult {
  status: ScreeningStatus;
  statusReason?: string;
}

const todayUtc = (now: Date): string => now.toISOString().slice(0, 10);

// Full years between two YYYY-MM-DD dates; string comparison of "MM-DD" handles birthdays, and a
// 29 February birthday counts from 1 March in common years.
export function ageOn(dateOfBirth: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return today.slice(5) >= dateOfBirth.slice(5) ? years : years - 1;
}

// Sandbox screening (docs/architecture.md): approved unless under 18 or the document has expired.
// Production has no automatic approval: without a verification provider a person waits for review.
export function screenApplicant(
  input: ScreeningInput,
  now: Date,
  mode: 'sandbox' | 'production',
): ScreeningResult {
  const today = todayUtc(now);
  if (ageOn(input.dateOfBirth, today) < MINIMUM_AGE) {
    return { status: 'REJECTED', statusReason: `applicant is under ${MINIMUM_AGE}` };
  }
  if (input.document && input.document.expiryDate < today) {
    return { status: 'REJECTED', statusReason: 'identity document has expired' };
  }
  if (mode === 'production') return { status: 'PENDING_REVIEW', statusReason: 'awaiting manual review' };
  return { status: 'APPROVED' };
}
