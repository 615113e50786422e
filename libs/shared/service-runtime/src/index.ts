export * from './service-runtime';
