export * from './token-claims';
export * from './jwks-cache';
export * from './merchant-jwt.strategy';
export * from './merchant-auth.guard';
export * from './merchant-auth.module';
export * from './admin-key.source';
export * from './admin-key.guard';
export * from './admin-key.module';
