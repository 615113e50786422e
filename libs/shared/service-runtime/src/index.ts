export * from './service-runtime';
export * from './run-service';
export * from './service-infrastructure';
