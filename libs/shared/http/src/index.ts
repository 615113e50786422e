export * from './problem.exception';
export * from './problem.filter';
export * from './validation.pipe';
export * from './pagination';
export * from './health.controller';
export * from './bootstrap';
export * from './idempotent-requests';
