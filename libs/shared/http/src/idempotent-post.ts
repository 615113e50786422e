import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';

import { StoredResponse } from '@onramp/persistence';

// What IdempotentRequests needs of a POST besides its DTO: the body as sent (its hash tells a retry
// from a reuse of the key with another body) and the Idempotency-Key header, if any.
export interface IdempotentInput {
  rawBody: unknown;
  idempotencyKey: string | undefined;
}

export const IdempotentInput = createParamDecorator(
  (_: unknown, context: ExecutionContext): IdempotentInput => {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    return { rawBody: req.body, idempotencyKey: req.headers['idempotency-key'] as string | undefined };
  },
);

// Answers a POST with the StoredResponse IdempotentRequests gave (the first answer, or its replay):
// sets its status on the reply and returns its body, which the handler returns for Nest to send.
export type StoredResponseReply = (response: StoredResponse) => unknown;

// The handler's StoredResponseReply. A parameter rather than an interceptor: a Nest interceptor
// wraps every request of its route in RxJS observables and bound async resources, about 3 % of an
// order's CPU on the busiest route (docs/performance-journal.md, 2026-12-02 evening).
export const StoredReply = createParamDecorator(
  (_: unknown, context: ExecutionContext): StoredResponseReply => {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return (response) => {
      void reply.status(response.status);
      return response.body;
    };
  },
);
