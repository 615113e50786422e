import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyRequest } from 'fastify';

import { createHttpApp } from '@onramp/http';

import { AuthModule } from './auth.module';
import { AuthConfig } from './config';

type BodyDone = (err: Error | null, body?: unknown) => void;

// Our HTTP conventions, plus one OAuth nicety: token clients that send `Content-Type:
// application/json` with no body get the empty body treated as `{}` instead of a 400. Not listening
// yet: startAuth listens on the configured port, the tests on one of their own.
export async function createAuthApp(config: AuthConfig): Promise<NestFastifyApplication> {
  const app = await createHttpApp(AuthModule.forRoot(config), {
    name: 'auth',
    port: 0,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
    formBodies: true, // POST /auth/token: grant_type=client_credentials
  });
  const fastify = app.getHttpAdapter().getInstance();
  const defaultJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (req: FastifyRequest, body: string | Buffer, done: BodyDone) => {
      if (body.length === 0) return done(null, {});
      // the default parser is synchronous and reports through done; its typing allows a promise
      void defaultJson(req, typeof body === 'string' ? body : body.toString('utf8'), done);
    },
  );
  return app;
}
