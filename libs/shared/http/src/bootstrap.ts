import { INestApplication, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

import { sendProblem } from './problem.filter';
import { ProblemDetailsFilter } from './problem.filter';
import { ProblemValidationPipe } from './validation.pipe';

export const DEFAULT_BODY_LIMIT = 1024 * 1024; // 1 MiB: larger bodies get 413

export interface HttpServiceOptions {
  name: string;
  port: number;
  host?: string;
  bodyLimit?: number;
  logLevel?: string;
}

const LEVELS: Record<string, LogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
};

// Applies our HTTP conventions to a Nest app on Fastify: problem+json everywhere, 413/415/400 for
// bad bodies, form bodies accepted (OAuth token requests), validation with field errors.
export async function createHttpApp(module: unknown, opts: HttpServiceOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT, trustProxy: true });
  const fastify = adapter.getInstance();
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    logger: LEVELS[opts.logLevel ?? 'info'] ?? LEVELS.info,
    bufferLogs: false,
  });
  fastify.setErrorHandler((err, req, reply) => sendProblem(reply, err, req.url.split('?')[0]));
  fastify.setNotFoundHandler((req, reply) =>
    sendProblem(reply, Object.assign(new Error('no such route'), { statusCode: 404 }), req.url.split('?')[0]),
  );
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.useGlobalPipes(new ProblemValidationPipe());
  app.enableShutdownHooks();
  return app;
}

export async function listen(app: INestApplication, opts: HttpServiceOptions): Promise<void> {
  await app.listen(opts.port, opts.host ?? '127.0.0.1');
  new Logger(opts.name).log(`listening on http://${opts.host ?? '127.0.0.1'}:${opts.port}`);
}

export async function bootstrapHttpService(module: unknown, opts: HttpServiceOptions): Promise<NestFastifyApplication> {
  const app = await createHttpApp(module, opts);
  await listen(app, opts);
  return app;
}
