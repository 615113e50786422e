import { createHash } from 'node:crypto';

import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { ProblemException, sendProblem, SharedProblemTypes } from '@onramp/http';

import { clientAddressKey } from './client-key';
import { normalisePath } from './normalise-path';
import { RateDecision, RateLimitPolicy, TokenBuckets } from './token-bucket';
import { tokenClientId } from './token-client-id';

export interface RateLimits {
  client: RateLimitPolicy; // per client address, every request first (a new credential buys nothing)
  api: RateLimitPolicy; // then per credential (Authorization header)
  token: RateLimitPolicy; // POST /auth/token, per client address: slows credential guessing
  authFailures: RateLimitPolicy; // failed token requests per merchant id; failed admin calls per address
  admin: RateLimitPolicy; // the admin listener, per client address
}

export type RateLimitedListener = 'public' | 'admin';

const TOKEN_PATH = '/auth/token';

// A credential is identified by a hash of its Authorization header, never the header itself, so
// the limiter's memory holds no secret.
const credentialKey = (auth: string): string =>
  `cred:${createHash('sha256').update(auth).digest('base64url')}`;

function reject(reply: FastifyReply, decision: RateDecision & { allowed: false }, path: string): void {
  const seconds = String(decision.retryAfterSeconds);
  const problem = new ProblemException(429, `too many requests; retry after ${seconds} s`, {
    type: SharedProblemTypes.RateLimited,
    headers: { 'Retry-After': seconds },
  });
  sendProblem(reply, problem, path);
}

// Failure reservations of one request: taken before the request goes upstream (so a parallel
// flood cannot all pass before the first answer), given back when the answer was not a failure.
const RESERVED = Symbol('rateLimitReserved');
type WithReservations = FastifyRequest & { [RESERVED]?: string[] };

// 429 problem+json with Retry-After before anything is proxied. `request.ip` is the client as
// Fastify's trustProxy saw it: the peer, or the X-Forwarded-For hop just before the trusted proxies.
// Routes are recognised on the normalised path, so encodings and dot segments escape nothing.
// True when any limit is on (a hook was installed).
export function installRateLimit(
  fastify: FastifyInstance,
  limits: RateLimits,
  listener: RateLimitedListener = 'public',
  now: () => number = Date.now,
): boolean {
  const client = new TokenBuckets(listener === 'admin' ? limits.admin : limits.client, now);
  const api = new TokenBuckets(limits.api, now);
  const token = new TokenBuckets(limits.token, now);
  const failures = new TokenBuckets(limits.authFailures, now);

  // Each request first against its client's bucket, then against one more: the admin listener's
  // failure reservation, the token endpoint's, or its credential's. Limits that are off cost nothing:
  // no hook at all when every one is off, no path normalised or credential hashed for an off bucket.
  const second = listener === 'admin' ? failures.enabled : token.enabled || api.enabled;
  if (client.enabled || second) {
    fastify.addHook('onRequest', (request, reply, done) => {
      const address = clientAddressKey(request.ip);
      let decision = client.take(address);
      if (decision.allowed && second) {
        if (listener === 'admin') decision = reserve(request, failures, address);
        else if (normalisePath(request.url) === TOKEN_PATH) decision = token.take(address);
        else if (request.headers.authorization && api.enabled)
          decision = api.take(credentialKey(request.headers.authorization));
      }
      if (!decision.allowed) {
        refundAll(request, failures);
        reject(reply, decision, request.url.split('?')[0]);
        return;
      }
      done();
    });
  }

  // Failed credentials are counted only when that limit is on.
  if (!failures.enabled) return client.enabled || second;

  if (listener === 'public') {
    // After the body is read: the merchant id may be in it.
    fastify.addHook('preHandler', (request, reply, done) => {
      if (normalisePath(request.url) !== TOKEN_PATH) return done();
      const merchant = tokenClientId(request);
      if (!merchant) return done();
      const decision = reserve(request, failures, `merchant:${merchant}`);
      if (!decision.allowed) {
        reject(reply, decision, request.url.split('?')[0]);
        return;
      }
      done();
    });
  }

  fastify.addHook('onResponse', (request, reply, done) => {
    // Only a refused credential (or a malformed token request) counts as a failure; a 429 has
    // already given its reservations back.
    const failure = (listener === 'admin' ? [401, 403] : [400, 401]).includes(reply.statusCode);
    if (!failure) refundAll(request, failures);
    done();
  });
  return true;
}

function reserve(request: FastifyRequest, failures: TokenBuckets, key: string): RateDecision {
  const decision = failures.take(key);
  if (decision.allowed) ((request as WithReservations)[RESERVED] ??= []).push(key);
  return decision;
}

function refundAll(request: FastifyRequest, failures: TokenBuckets): void {
  const r = request as WithReservations;
  for (const key of r[RESERVED] ?? []) failures.refund(key);
  r[RESERVED] = [];
}
