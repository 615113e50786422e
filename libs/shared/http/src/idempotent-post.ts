import {
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';

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

@Injectable()
class StoredResponseInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<StoredResponse>): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((response) => {
        void reply.status(response.status);
        return response.body;
      }),
    );
  }
}

// A POST answered through IdempotentRequests: the handler returns the StoredResponse (the first
// answer, or its replay) and it is sent with its own status and body.
export const RepliesStoredResponse = (): MethodDecorator & ClassDecorator =>
  UseInterceptors(StoredResponseInterceptor);
