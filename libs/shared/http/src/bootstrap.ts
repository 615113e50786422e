import { INestApplication, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { installAppLogger, LoggingConfig, withLogContext } from '@onramp/logging';
import { installHttpMetrics, installHttpTracing, installTracing, TracingConfig } from '@onramp/observability';

import { installLeanAsyncResourceBind } from './async-resource-bind';
import { inspectInput } from './input-guard';
import { ProblemDetailsFilter } from './problem.filter';
import { ProblemValidationPipe } from './validation.pipe';

export const DEFAULT_BODY_LIMIT = 1024 * 1024; // 1 MiB: larger bodies get 413

export interface HttpServiceOptions {
  name: string;
  port: number;
  host?: string;
  bodyLimit?: number;
  logging: LoggingConfig; // LOG_FORMAT and LOG_LEVEL, from the app's config
  tracing: TracingConfig;
  // application/x-www-form-urlencoded bodies parsed into objects: only the OAuth token endpoint takes
  // them; everywhere else a form body is a 415 like any other non-JSON body.
  formBodies?: boolean;
  // An empty application/json body read as `{}` instead of a 400: OAuth token clients send the
  // header with no body. Every other check of a JSON body still applies.
  emptyJsonIsObject?: boolean;
  // Which peers may set X-Forwarded-For (so request.ip is the client behind them). Default: none;
  // a service never believes a client's own header.
  trustProxy?: (address: string, hop: number) => boolean;
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
  opts: Pick<HttpServiceOptions, 'bodyLimit' | 'formBodies' | 'emptyJsonIsObject' | 'trustProxy'> = {},
): FastifyAdapter {
  installLeanAsyncResourceBind();
  const adapter = new FastifyAdapter({
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustProxy: opts.trustProxy ?? false,
  });
  const fastify = adapter.getInstance();
  // Every log line written while serving a request carries its id (X-Request-Id from the gateway).
  // Set again before the handler: body parsing can leave the async context of onRequest.
  const inRequestContext = (request: FastifyRequest, _reply: unknown, done: () => void): void => {
    const header = request.headers['x-request-id'];
    withLogContext({ requestId: typeof header === 'string' && header ? header : request.id }, done);
  };
  fastify.addHook('onRequest', inRequestContext);
  fastify.addHook('preHandler', inRequestContext);
  fastify.removeContentTypeParser('text/plain');
  // Fastify's own JSON parser (proto-poisoning checks included), then our depth and control
  // character guard: both are 400s here, before a pipe or a query could turn them into a 500.
  const json = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (opts.emptyJsonIsObject && (body as string).length === 0) return done(null, {});
    void json(req, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err);
      const problem = inspectInput(value, 'body');
      if (problem) return done(problem);
      done(null, value);
    });
  });
  if (opts.formBodies) {
    fastify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        const value = Object.fromEntries(new URLSearchParams(body as string));
        done(inspectInput(value, 'body') ?? null, value);
      },
    );
  }
  // Query strings and path parameters arrive percent-decoded: %00 is a NUL like any other.
  fastify.addHook('preValidation', (request, _reply, done) => {
    done(inspectInput(request.query, 'query') ?? inspectInput(request.params, 'path'));
  });
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
    // LOG_FORMAT=json (production default): JSON lines; else Nest's console logger at LOG_LEVEL.
    logger: installAppLogger(opts.name, opts.logging) ?? LEVELS[opts.logging.level] ?? LEVELS.info,
    bufferLogs: false,
    // The parsers are ours (fastify's JSON + the form parser above); Nest's own would re-register
    // application/x-www-form-urlencoded at init() and fail with "already present".
    bodyParser: false,
  });
  applyHttpConventions(app);
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  installHttpMetrics(fastify, opts.name); // exposed by each app's MetricsController
  installTracing({ serviceName: opts.name, config: opts.tracing });
  installHttpTracing(fastify, opts.name);
  app.enableShutdownHooks();
  return app;
}

export async function listen(
  app: INestApplication,
  opts: Pick<HttpServiceOptions, 'name' | 'port' | 'host'>,
): Promise<void> {
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
