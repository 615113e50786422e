import { currentLogContext } from '@onramp/logging';

import { createHttpAdapter } from './bootstrap';

// Log lines written while a service handles a request carry the gateway's X-Request-Id, also after
// the body was parsed (stream events can leave the request's async context).
describe('request log context', () => {
  it('is the X-Request-Id header in the handler, for GET and for a JSON body', async () => {
    const fastify = createHttpAdapter().getInstance();
    fastify.get('/ctx', async () => currentLogContext());
    fastify.post('/ctx', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return currentLogContext();
    });
    await fastify.ready();
    try {
      const get = await fastify.inject({
        method: 'GET',
        url: '/ctx',
        headers: { 'x-request-id': 'req-get-1' },
      });
      expect(get.json()).toEqual({ requestId: 'req-get-1' });
      const post = await fastify.inject({
        method: 'POST',
        url: '/ctx',
        headers: { 'x-request-id': 'req-post-2', 'content-type': 'application/json' },
        payload: JSON.stringify({ a: 1 }),
      });
      expect(post.json()).toEqual({ requestId: 'req-post-2' });
      const none = await fastify.inject({ method: 'GET', url: '/ctx' });
      expect(typeof (none.json() as { requestId?: string }).requestId).toBe('string');
    } finally {
      await fastify.close();
    }
  });
});
