export * from './problem.response';
export * from './api-problem-response.decorator';
export * from './api-merchant-auth.decorator';
export * from './api-idempotency-key.decorator';
export * from './api-paginated-response.decorator';
