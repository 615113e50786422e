import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';

import { Page, PaginationQuery, setPaginationHeaders } from './pagination';
import { badRequest } from './problem.exception';
import { fieldErrors } from './validation.pipe';

// The page the request asked for. The handler's @Query() DTO extends PaginationQuery, so the
// validation pipe has already answered a bad limit or offset with a 400 listing every bad field;
// reading them again here keeps a handler that forgot to from sending links with NaN in them.
function requestedPage(query: unknown): PaginationQuery {
  const asked = (query ?? {}) as Record<string, unknown>;
  const present = Object.fromEntries(['limit', 'offset'].filter((k) => k in asked).map((k) => [k, asked[k]]));
  const page = plainToInstance(PaginationQuery, present);
  const errors = validateSync(page);
  if (errors.length > 0) throw badRequest('the request has invalid fields', fieldErrors(errors));
  return page;
}

@Injectable()
class PaginationHeadersInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<Page<unknown>>): Observable<unknown[]> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map(({ items, total }) => {
        const { limit, offset } = requestedPage(req.query);
        setPaginationHeaders(req, reply, { total, limit, offset });
        return items;
      }),
    );
  }
}

// A list endpoint (docs/api.md, Pagination): the handler takes limit/offset from its PaginationQuery
// and returns a Page; the response is the JSON array of its items, with X-Total-Count and the Link
// header to the neighbouring pages.
export const Paginated = (): MethodDecorator & ClassDecorator =>
  applyDecorators(UseInterceptors(PaginationHeadersInterceptor));
