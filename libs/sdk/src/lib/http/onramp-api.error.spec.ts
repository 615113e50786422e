import { FakeOnrampApi, problem } from '../../testing/fake-onramp-api';
import { OnrampClient } from '../client/onramp-client';
import { OnrampApiError, toProblem } from './onramp-api.error';

describe('OnrampApiError', () => {
  let api: FakeOnrampApi;
  let client: OnrampClient;

  beforeEach(async () => {
    api = new FakeOnrampApi();
    const url = await api.start();
    client = new OnrampClient({
      baseUrl: url,
      kycUrl: url,
      merchantId: 'merchant-1',
      merchantSecret: 's3cret:with-colon',
    });
  });

  afterEach(() => api.stop());

  const failure = async (promise: Promise<unknown>): Promise<OnrampApiError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof OnrampApiError))
      throw new Error(`expected an OnrampApiError, got ${String(error)}`);
    return error;
  };

  it('carries the status, the problem+json members and the response headers', async () => {
    api.route('POST', '/orders/create', () =>
      problem(400, 'Bad Request', {
        type: 'https://onramp.dev/problems/validation',
        detail: 'the request has invalid fields',
        instance: '/orders/create',
        errors: [{ field: 'currency', message: 'currency must be EUR' }],
      }),
    );
    const error = await failure(
      client.createOrder({ amount: 1, currency: 'EUR', recepientAddress: '0x1', kycUserUuid: 'u' }),
    );
    expect(error).toMatchObject({
      name: 'OnrampApiError',
      status: 400,
      type: 'https://onramp.dev/problems/validation',
      title: 'Bad Request',
      detail: 'the request has invalid fields',
      errors: [{ field: 'currency', message: 'currency must be EUR' }],
      problem: { status: 400, instance: '/orders/create' },
      request: { method: 'POST' },
    });
    expect(error.headers.get('content-type')).toBe('application/problem+json');
    expect(error.message).toContain('400 Bad Request: the request has invalid fields');
  });

  it('builds a problem from the status when the body is not problem+json', async () => {
    api.route('GET', '/merchant/webhook', () => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html>bad gateway</html>',
    }));
    const error = await failure(client.getWebhook());
    expect(error.status).toBe(502);
    expect(error.problem).toEqual({ type: 'about:blank', title: 'Bad Gateway', status: 502 });
    expect(error.errors).toEqual([]);
  });

  it('keeps only well-typed members of a problem body', () => {
    expect(
      toProblem(422, '', { title: 7, detail: 'no such KYC user', errors: [{ field: 'x' }, 'y'] }),
    ).toEqual({
      type: 'about:blank',
      title: 'HTTP 422',
      status: 422,
      detail: 'no such KYC user',
    });
  });
});
