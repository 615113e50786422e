export * from './kyc-screening';
