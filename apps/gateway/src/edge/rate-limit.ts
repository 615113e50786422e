import { createHash } from 'node:crypto';

import { FastifyInstance, FastifyRequest } from 'fastify';

import { ProblemException, sendProblem } from '@onramp/http';

import { RateLimitPolicy, TokenBuckets } from './token-bucket';

export interface RateLimits {
  api: RateLimitPolicy; // per credential (Authorization header), else per client IP
  token: RateLimitPolicy; // POST /auth/token, per client IP: slows credential guessing
}

// A credential is identified by a hash of its Authorization header, never the header itself, so
// the limiter's memory holds no secret; anonymous requests share their client IP's bucket.
function clientKey(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  return auth ? `cred:${createHash('sha256').update(auth).digest('base64url')}` : `ip:${request.ip}`;
}

// 429 problem+json with Retry-After (DESIGN.md section 3) before anything is proxied.
export function installRateLimit(
  fastify: FastifyInstance,
  limits: RateLimits,
  now: () => number = Date.now,
): void {
  const api = new TokenBuckets(limits.api, now);
  const token = new TokenBuckets(limits.token, now);
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?')[0];
    const decision = path === '/auth/token' ? token.take(`ip:${request.ip}`) : api.take(clientKey(request));
    if (!decision.allowed) {
      const seconds = String(decision.retryAfterSeconds);
      const problem = new ProblemException(429, `too many requests; retry after ${seconds} s`, {
        type: 'https://onramp.dev/problems/rate-limited',
        headers: { 'Retry-After': seconds },
      });
      sendProblem(reply, problem, path);
      return;
    }
    done();
  });
}
