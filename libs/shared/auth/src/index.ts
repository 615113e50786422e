export * from './token-claims';
export * from './jwks-cache';
export * from './merchant-jwt.strategy';
export * from './merchant-auth.guard';
export * from './merchant-auth.module';
