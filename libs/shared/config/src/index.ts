export * from './env';
export * from './common-env';
