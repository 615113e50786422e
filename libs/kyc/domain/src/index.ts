export * from './kyc-screening';
export * from './calendar-date';
