import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsIn, IsString } from 'class-validator';

import { inspectInput, MAX_JSON_DEPTH } from './input-guard';
import { OptionalField } from './optional-field';
import { PaginationQuery } from './pagination';
import { startConventionsTestApp } from './testing/conventions-test-app';

class NoteDto {
  @IsString()
  text!: string;

  @OptionalField()
  @IsIn(['OPEN', 'DONE'])
  status?: string;
}

@Controller()
class EchoController {
  @Post('notes')
  create(@Body() body: NoteDto): NoteDto {
    return body;
  }

  @Get('notes/:id')
  one(@Param('id') id: string): { id: string } {
    return { id };
  }

  @Get('notes')
  list(@Query() page: PaginationQuery): PaginationQuery {
    return page;
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('inspectInput', () => {
  it('finds control characters in values and keys, and nesting past the limit, without recursion', () => {
    expect(inspectInput({ a: ['ok', { b: 'fine' }] }, 'body')).toBeUndefined();
    expect(inspectInput({ a: ['ok', { b: 'x\u0000' }] }, 'body')?.extras).toMatchObject({
      errors: [{ field: 'a.1.b' }],
    });
    expect(inspectInput({ 'k\u001b': 1 }, 'body')).toBeDefined();
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(inspectInput(deep, 'body')?.getStatus()).toBe(400);
    let ok: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) ok = [ok];
    expect(inspectInput(ok, 'body')).toBeUndefined();
  });
});

describe('the HTTP conventions refuse bad input with a 400, never a 500', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await startConventionsTestApp(EchoModule);
  });
  afterAll(() => app.close());

  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, payload });

  it.each([
    ['a NUL byte in a text field', '{"text":"a\\u0000b"}'],
    ['an escape character', '{"text":"\\u001b[31m"}'],
    ['a 2,000-deep body', `{"text":"x","extra":${'['.repeat(2000)}${']'.repeat(2000)}}`],
    ['a 100,000-deep body', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['null for an optional enum', '{"text":"x","status":null}'],
    ['a number for a string', '{"text":10}'],
    ['proto poisoning', '{"text":"x","__proto__":{"admin":true}}'],
  ])('%s', async (_case, payload) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('still takes a good body', async () => {
    expect((await post('{"text":"hello","status":"OPEN"}')).statusCode).toBe(201);
  });

  it.each(['/notes/a%00b', '/notes?offset=%00', '/notes?offset=9223372036854775808', '/notes?limit=1e1'])(
    '%s',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    },
  );
});

// auth's token endpoint takes an empty JSON body as {}; nothing else about JSON bodies changes there.
describe('with emptyJsonIsObject (auth)', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await startConventionsTestApp(EchoModule, { emptyJsonIsObject: true });
  });
  afterAll(() => app.close());

  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, payload });

  it('reads an empty body as {} (then validation speaks: a 400 naming the field)', async () => {
    const res = await post('');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: [expect.objectContaining({ field: 'text' })] });
  });

  it.each([
    ['a NUL byte', '{"text":"a\\u0000b"}'],
    ['a 2,000-deep body', `{"text":"x","extra":${'['.repeat(2000)}${']'.repeat(2000)}}`],
  ])('still refuses %s', async (_case, payload) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });
});
