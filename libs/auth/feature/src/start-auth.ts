import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { listen } from '@onramp/http';

import { AuthConfig } from './config';
import { createAuthApp } from './create-auth-app';

// The service listening on its port: main.ts runs it as a process, the embedded runner beside the
// others in one; both parse the config first (loadAuthConfig) and pass it here.
export async function startAuth(config: AuthConfig): Promise<NestFastifyApplication> {
  const app = await createAuthApp(config);
  await listen(app, { name: 'auth', port: config.port, host: config.host });
  return app;
}
