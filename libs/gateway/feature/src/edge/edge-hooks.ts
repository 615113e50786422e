import { Logger } from '@nestjs/common';
import { FastifyInstance } from 'fastify';

import { notFound, sendProblem } from '@onramp/http';
import { addLogContext } from '@onramp/logging';

import { isBlockedPath } from '../routes';
import { bodyCollector } from './body-collector';
import { requestIdFor } from './request-id';

const log = new Logger('Gateway');

// What every listener does before routing: a request id, the never-forwarded paths, our own body
// parsing (raw bytes, 1 MiB) and, at LOG_LEVEL=debug, a one-line access log (method, path, status,
// time; never headers or bodies, so no Authorization or PII reaches the logs).
export function installEdgeHooks(
  fastify: FastifyInstance,
  // accessLog: LOG_LEVEL is debug, the only level that writes the line (else no hook builds it)
  opts: { listener: string; bodyLimit: number; accessLog: boolean },
): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', bodyCollector(opts.bodyLimit));

  fastify.addHook('onRequest', (request, reply, done) => {
    const requestId = requestIdFor(request.headers['x-request-id']);
    request.headers['x-request-id'] = requestId;
    addLogContext({ requestId });
    void reply.header('X-Request-Id', requestId);
    const path = request.url.split('?')[0];
    if (isBlockedPath(path)) {
      sendProblem(reply, notFound('no such route'), path);
      return;
    }
    done();
  });

  if (!opts.accessLog) return;
  fastify.addHook('onResponse', (request, reply, done) => {
    log.debug(
      `${opts.listener} ${request.method} ${request.url.split('?')[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms id=${String(request.headers['x-request-id'])}`,
    );
    done();
  });
}
