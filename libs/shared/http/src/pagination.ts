import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { FastifyReply, FastifyRequest } from 'fastify';

export const MAX_PAGE_SIZE = 50;

export class PaginationQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer between 1 and 50' })
  @Min(1, { message: 'limit must be an integer between 1 and 50' })
  @Max(MAX_PAGE_SIZE, { message: 'limit must be an integer between 1 and 50' })
  limit: number = MAX_PAGE_SIZE;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'offset must be a non-negative integer' })
  @Min(0, { message: 'offset must be a non-negative integer' })
  offset: number = 0;
}

// X-Total-Count and an RFC 8288 Link header (first, prev, next, last) for a page of a list.
export function setPaginationHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  page: { total: number; limit: number; offset: number },
): void {
  const { total, limit, offset } = page;
  const [path, search = ''] = req.url.split('?');
  // Other query parameters (filters) stay in every link, so "next" pages through the same list.
  const kept = new URLSearchParams(search);
  kept.delete('limit');
  kept.delete('offset');
  const filters = kept.size > 0 ? `${kept.toString()}&` : '';
  const link = (rel: string, off: number) => `<${path}?${filters}limit=${limit}&offset=${off}>; rel="${rel}"`;
  const links = [link('first', 0)];
  if (offset > 0) links.push(link('prev', Math.max(0, offset - limit)));
  if (offset + limit < total) links.push(link('next', offset + limit));
  links.push(link('last', total === 0 ? 0 : Math.floor((total - 1) / limit) * limit));
  void reply.header('X-Total-Count', String(total));
  void reply.header('Link', links.join(', '));
  void reply.header('Access-Control-Expose-Headers', 'X-Total-Count, Link');
}
