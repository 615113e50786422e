import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { listen } from '@onramp/http';

import { loadAuthConfig, loadAuthRuntime } from './config';
import { createAuthApp } from './create-auth-app';

// The app on its own: main.ts runs it as a process, the embedded runner beside the others in one.
export async function startAuth(): Promise<NestFastifyApplication> {
  const config = loadAuthConfig();
  const app = await createAuthApp(loadAuthRuntime());
  await listen(app, { name: 'auth', port: config.port, host: config.host });
  return app;
}
