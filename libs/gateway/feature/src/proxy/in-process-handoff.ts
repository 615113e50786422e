import { EventEmitter } from 'node:events';
import { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';

import { PROBLEM_CONTENT_TYPE } from '@onramp/http';

import { upstreamTimeout } from './upstream-error';

const log = new Logger('GatewayProxy');

// Headers of one connection, not of the request: never handed on (a proxy's hop drops them too).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'transfer-encoding',
]);

export interface HandOff {
  server: Server; // the service's HTTP server, in this process
  port: number; // the port it listens on
  path: string; // the path the service sees, with the client's query
  headers: IncomingHttpHeaders; // the forwarded headers the proxy would send
  upstreamTimeoutMs: number;
  upstream: string; // the service's name, for the log
}

// Embedded mode: a proxied request is handed to the service's HTTP server in this process as the
// request it would have parsed, and the service answers on the gateway's own response to the client.
// Over the in-memory socket the request was written out as HTTP/1, parsed again by the service, its
// answer written out, parsed by undici and written again to the client: 0.4-0.5 ms of the embedded
// platform's 1.2-1.4 ms a created order, a third of it (docs/performance-journal.md). What the hop did
// is kept: the forwarded and trace headers (the caller's), the body as the gateway buffered it with
// its exact Content-Length, the gateway's own response headers (X-Request-Id), and the upstream
// timeout: a service that has not answered within it gets the same 504 as over a socket, and what it
// writes later goes nowhere. A service not in this process (stopped, or never here) is proxied as
// before, so it is refused like any stopped service.
export function handOff(request: FastifyRequest, reply: FastifyReply, to: HandOff): void {
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) res.setHeader(name, value as string | number | string[]);
  void reply.hijack();
  handOffRequest(
    request.method,
    request.url,
    Buffer.isBuffer(request.body) ? request.body : undefined,
    res,
    to,
  );
}

// The hand-off itself, for a request as the client sent it (`clientUrl`, for the log) whose body, if
// any, has been read: the service answers on `res`, which carries the gateway's headers already.
export function handOffRequest(
  method: string,
  clientUrl: string,
  body: Buffer | undefined,
  res: ServerResponse,
  to: HandOff,
): void {
  const upstreamRequest = new IncomingMessage(new HandOffSocket(to.port) as unknown as Socket);
  upstreamRequest.method = method;
  upstreamRequest.url = to.path;
  upstreamRequest.httpVersionMajor = 1;
  upstreamRequest.httpVersionMinor = 1;
  upstreamRequest.httpVersion = '1.1';
  // copied name by name, not spread and deleted from (forwarded-headers.ts says why)
  const headers: IncomingHttpHeaders = {};
  for (const name of Object.keys(to.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = to.headers[name];
  if (body) headers['content-length'] = String(body.length);
  upstreamRequest.headers = headers;
  if (body && body.length > 0) upstreamRequest.push(body);
  upstreamRequest.push(null);
  // As Node's parser marks a request read to its end: destroying it then is not an abort.
  upstreamRequest.complete = true;

  const timer = setTimeout(() => {
    if (res.headersSent || res.destroyed) return;
    const path = clientUrl.split('?')[0];
    log.warn(`${to.upstream}: 504 for ${method} ${path} (no answer in ${to.upstreamTimeoutMs} ms)`);
    answerTimedOut(res, path);
  }, to.upstreamTimeoutMs);
  res.once('close', () => clearTimeout(timer));
  to.server.emit('request', upstreamRequest, res);
}

// What a handed-off request says it came over: the loopback addresses an in-memory connection shows
// (InProcessSocket), one per request, never read from or written to (the request carries its body,
// the answer goes to the client's connection).
class HandOffSocket extends EventEmitter {
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly localAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly encrypted = false;
  readonly readable = false;
  readonly writable = false;
  destroyed = false;

  constructor(readonly localPort: number) {
    super();
  }

  destroy(): this {
    this.destroyed = true;
    return this;
  }

  // request.setTimeout(): no connection to time out (the gateway's upstream timeout bounds the answer)
  setTimeout(): this {
    return this;
  }
}

// The 504 the proxy sends for a service too slow to answer. The service may still answer later: its
// writes to this response are dropped then, as they would be on a connection the proxy had given up.
function answerTimedOut(res: ServerResponse, path: string): void {
  const problem = upstreamTimeout();
  res.writeHead(504, { 'content-type': PROBLEM_CONTENT_TYPE });
  res.end(JSON.stringify(problem.toBody(path)));
  res.writeHead = () => res;
  res.setHeader = () => res;
  res.write = () => true;
  res.end = () => res;
}
