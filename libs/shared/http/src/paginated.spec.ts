import { Controller, Get, Module, Query } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsIn, IsOptional } from 'class-validator';

import { Page, Paginated } from './paginated';
import { PaginationQuery } from './pagination';
import { startConventionsTestApp } from './testing/conventions-test-app';

const NUMBERS = Array.from({ length: 5 }, (_, i) => i + 1);

class FilteredQuery extends PaginationQuery {
  @IsOptional()
  @IsIn(['odd'], { message: 'parity must be odd' })
  parity?: 'odd';
}

@Controller()
class NumbersController {
  @Get('numbers')
  @Paginated()
  list(@Query() query: FilteredQuery): Page<number> {
    const all = query.parity === 'odd' ? NUMBERS.filter((n) => n % 2 === 1) : NUMBERS;
    return { items: all.slice(query.offset, query.offset + query.limit), total: all.length };
  }

  // A handler that did not declare its PaginationQuery: @Paginated still refuses a bad page.
  @Get('unchecked')
  @Paginated()
  unchecked(): Page<number> {
    return { items: NUMBERS, total: NUMBERS.length };
  }
}

@Module({ controllers: [NumbersController] })
class NumbersModule {}

describe('@Paginated()', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await startConventionsTestApp(NumbersModule);
  });
  afterAll(() => app.close());

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('answers the items as a JSON array with X-Total-Count and the Link header', async () => {
    const res = await get('/numbers?limit=2&offset=2');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([3, 4]);
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers.link).toBe(
      [
        '</numbers?limit=2&offset=0>; rel="first"',
        '</numbers?limit=2&offset=0>; rel="prev"',
        '</numbers?limit=2&offset=4>; rel="next"',
        '</numbers?limit=2&offset=4>; rel="last"',
      ].join(', '),
    );
  });

  it('defaults to limit 50 and offset 0, and keeps the filters in the links', async () => {
    const res = await get('/numbers?parity=odd');
    expect(res.json()).toEqual([1, 3, 5]);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.headers.link).toBe(
      '</numbers?parity=odd&limit=50&offset=0>; rel="first", </numbers?parity=odd&limit=50&offset=0>; rel="last"',
    );
  });

  it.each(['/numbers?limit=51', '/numbers?offset=-1', '/numbers?limit=1e1', '/unchecked?limit=0x10'])(
    'answers %s with a 400 problem naming the field',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      const fields = (res.json().errors as { field: string }[]).map((e) => e.field);
      expect(new Set(fields)).toEqual(new Set([url.includes('offset') ? 'offset' : 'limit']));
    },
  );

  it('lists every bad field of the query in one 400', async () => {
    const res = await get('/numbers?limit=0&parity=even');
    expect(res.statusCode).toBe(400);
    const fields = (res.json().errors as { field: string }[]).map((e) => e.field);
    expect(new Set(fields)).toEqual(new Set(['limit', 'parity']));
  });
});
