import { INestApplication, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

import { ProblemDetailsFilter } from './problem.filter';
import { ProblemValidationPipe } from './validation.pipe';

export const DEFAULT_BODY_LIMIT = 1024 * 1024; // 1 MiB: larger bodies get 413

export interface HttpServiceOptions {
  name: string;
  port: number;
  host?: string;
  bodyLimit?: number;
  logLevel?: string;
  // application/x-www-form-urlencoded bodies parsed into objects: only the OAuth token endpoint takes
  // them; everywhere else a form body is a 415 like any other non-JSON body.
  formBodies?: boolean;
}

const LEVELS: Record<string, LogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
};

// The Fastify adapter of every service: body limit (413 past it), JSON only (text/plain is a 415,
// not a string), and form bodies only where asked for (the OAuth token endpoint).
export function createHttpAdapter(
  opts: Pick<HttpServiceOptions, 'bodyLimit' | 'formBodies'> = {},
): FastifyAdapter {
  const adapter = new FastifyAdapter({ bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT, trustProxy: true });
  const fastify = adapter.getInstance();
  fastify.removeContentTypeParser('text/plain');
  if (opts.formBodies) {
    fastify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
  }
  return adapter;
}

// problem+json for everything thrown, validation with field errors. No fastify.setNotFoundHandler/
// setErrorHandler: Nest installs its own at init() (a second not-found handler throws), and both
// route through this filter, so unknown routes and Fastify body errors (413/415/400) are problem+json.
export function applyHttpConventions(app: INestApplication): void {
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.useGlobalPipes(new ProblemValidationPipe());
}

// A service's Nest app on Fastify with our HTTP conventions (tests build theirs from a compiled
// testing module with createHttpAdapter + applyHttpConventions: the same two pieces).
export async function createHttpApp(
  module: unknown,
  opts: HttpServiceOptions,
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module as never, createHttpAdapter(opts), {
    logger: LEVELS[opts.logLevel ?? 'info'] ?? LEVELS.info,
    bufferLogs: false,
    // The parsers are ours (fastify's JSON + the form parser above); Nest's own would re-register
    // application/x-www-form-urlencoded at init() and fail with "already present".
    bodyParser: false,
  });
  applyHttpConventions(app);
  app.enableShutdownHooks();
  return app;
}

export async function listen(app: INestApplication, opts: HttpServiceOptions): Promise<void> {
  await app.listen(opts.port, opts.host ?? '127.0.0.1');
  new Logger(opts.name).log(`listening on http://${opts.host ?? '127.0.0.1'}:${opts.port}`);
}

export async function bootstrapHttpService(
  module: unknown,
  opts: HttpServiceOptions,
): Promise<NestFastifyApplication> {
  const app = await createHttpApp(module, opts);
  await listen(app, opts);
  return app;
}
