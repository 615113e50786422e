import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { applyHttpConventions, createHttpAdapter } from '../bootstrap';

// A module of test controllers behind the HTTP conventions every service applies (pipes, problem
// filter, input guard), ready for app.inject. For this lib's own specs; services test through
// @onramp/testing's startHttpTestApp.
export async function startConventionsTestApp(
  module: Type<unknown>,
  adapter: Parameters<typeof createHttpAdapter>[0] = {},
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module, createHttpAdapter(adapter), {
    logger: false,
    bodyParser: false,
  });
  applyHttpConventions(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
