export * from './data-source';
export * from './pg-errors';
export * from './messaging-tables';
export * from './idempotency-store';
export * from './typeorm-root';
export * from './migration-lock';
export * from './service-migrations';
export * from './admin-audit';
