// auth as a library: apps/auth/src/main.ts, the embedded runner, the OpenAPI generator, the migrate
// tool and the service's integration tests all start here.
export { AUTH_SCHEMA, isUuid, loadAuthConfig, loadAuthRuntime } from './config';
export type { AuthConfig, AuthRuntime } from './config';
export { AuthModule } from './auth.module';
export { createAuthApp } from './create-auth-app';
export { SERVICE_DATABASE } from './database';
export { startAuth } from './start-auth';
