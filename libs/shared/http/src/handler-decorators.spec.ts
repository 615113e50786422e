import { Controller, Get, HttpCode, Module, Post, Query } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsIn, IsOptional } from 'class-validator';

import { IdempotentInput, StoredReply, StoredResponseReply } from './idempotent-post';
import { Paginated } from './paginated';
import { Page, PaginationQuery } from './pagination';
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

  // A first answer is a 201; its replay here says 200 to show the stored status wins.
  @Post('numbers')
  @HttpCode(201)
  create(@IdempotentInput() request: IdempotentInput, @StoredReply() reply: StoredResponseReply): unknown {
    return reply({ status: request.idempotencyKey === 'replay' ? 200 : 201, body: { seen: request } });
  }
}

@Module({ controllers: [NumbersController] })
class NumbersModule {}

// The handler decorators of @onramp/http, on one app behind the services' HTTP conventions.
let app: NestFastifyApplication;
beforeAll(async () => {
  app = await startConventionsTestApp(NumbersModule);
});
afterAll(() => app.close());

describe('@Paginated()', () => {
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

describe('@StoredReply() and @IdempotentInput()', () => {
  const post = (headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/numbers',
      headers: { 'content-type': 'application/json', ...headers },
      payload: '{"a":1}',
    });

  it('sends the stored status and body, and hands the handler the raw body and the key', async () => {
    const first = await post({ 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ seen: { rawBody: { a: 1 }, idempotencyKey: 'k-1' } });
    const replay = await post({ 'idempotency-key': 'replay' });
    expect(replay.statusCode).toBe(200);
    const keyless = await post();
    expect(keyless.json()).toEqual({ seen: { rawBody: { a: 1 } } }); // no key: undefined, left out of JSON
  });
});
