import 'reflect-metadata';

import { Logger } from '@nestjs/common';

import { listen } from '@onramp/http';

import { loadAuthConfig } from './config';
import { createAuthApp } from './create-auth-app';

async function main(): Promise<void> {
  const config = loadAuthConfig();
  const app = await createAuthApp(config);
  await listen(app, { name: 'auth', port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  new Logger('auth').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
