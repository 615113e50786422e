import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { FastifyReply, FastifyRequest } from 'fastify';

export const MAX_PAGE_SIZE = 50;
// Far past any real list, well inside both Postgres' bigint OFFSET and a JS safe integer: 2^63 or
// 1e400 is a 400, never a driver error.
export const MAX_OFFSET = 2_147_483_647;

// Query integers in plain decimal only: "1e3", "0x10", " 7", "7.0" and repeated parameters are
// rejected (NaN fails @IsInt) instead of being coerced by Number().
export const StrictQueryInt = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,16}$/.test(value)
        ? Number(value)
        : NaN,
  );

export class PaginationQuery {
  @IsOptional()
  @StrictQueryInt()
  @IsInt({ message: 'limit must be an integer between 1 and 50' })
  @Min(1, { message: 'limit must be an integer between 1 and 50' })
  @Max(MAX_PAGE_SIZE, { message: 'limit must be an integer between 1 and 50' })
  limit: number = MAX_PAGE_SIZE;

  @IsOptional()
  @StrictQueryInt()
  @IsInt({ message: `offset must be an integer between 0 and ${MAX_OFFSET}` })
  @Min(0, { message: `offset must be an integer between 0 and ${MAX_OFFSET}` })
  @Max(MAX_OFFSET, { message: `offset must be an integer between 0 and ${MAX_OFFSET}` })
  offset: number = 0;
}

// An operator's list (the admin listener): every merchant's items, or one merchant's.
export class MerchantFilteredPageQuery extends PaginationQuery {
  @IsOptional()
  @IsUUID('all', { message: 'merchantId must be a UUID' })
  merchantId?: string;
}

// What a list use case is asked for, and what it answers (a Paginated handler sends the items).
export type PageRequest = Pick<PaginationQuery, 'limit' | 'offset'>;
export interface Page<T> {
  items: T[];
  total: number; // the size of the whole list
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
