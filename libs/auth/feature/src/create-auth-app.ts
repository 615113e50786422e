import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { createHttpApp } from '@onramp/http';

import { AuthModule } from './auth.module';
import { AuthConfig } from './config';

// Our HTTP conventions (the JSON depth and control character guard included), plus two OAuth
// niceties for POST /auth/token: form bodies, and an empty JSON body read as `{}`. Not listening
// yet: startAuth listens on the configured port, the tests on one of their own.
export async function createAuthApp(config: AuthConfig): Promise<NestFastifyApplication> {
  return createHttpApp(AuthModule.forRoot(config), {
    name: 'auth',
    port: 0,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
    formBodies: true, // grant_type=client_credentials
    emptyJsonIsObject: true,
  });
}
