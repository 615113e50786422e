import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { StoredResponse } from '@onramp/persistence';

import { IdempotentInput, RepliesStoredResponse } from './idempotent-post';
import { startConventionsTestApp } from './testing/conventions-test-app';

@Controller()
class EchoController {
  // A first answer is a 201; its replay here says 200 to show the stored status wins.
  @Post('things')
  @HttpCode(201)
  @RepliesStoredResponse()
  create(@IdempotentInput() request: IdempotentInput): StoredResponse {
    return { status: request.idempotencyKey === 'replay' ? 200 : 201, body: { seen: request } };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('@RepliesStoredResponse() and @IdempotentInput()', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await startConventionsTestApp(EchoModule);
  });
  afterAll(() => app.close());

  const post = (headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/things',
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
