export * from './service-runtime';
export * from './run-service';
