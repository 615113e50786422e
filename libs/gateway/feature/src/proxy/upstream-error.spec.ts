import { upstreamProblem } from './upstream-error';

const coded = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause });

describe('upstreamProblem', () => {
  it('maps an unreachable upstream to 503 with Retry-After', () => {
    for (const err of [
      coded('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', coded('ECONNREFUSED')),
      coded('FST_REPLY_FROM_SERVICE_UNAVAILABLE', coded('ENOTFOUND')),
      coded('UND_ERR_CONNECT_TIMEOUT'),
      coded('ECONNRESET'),
    ]) {
      const problem = upstreamProblem(err);
      expect(problem.getStatus()).toBe(503);
      expect(problem.extras.headers).toEqual({ 'Retry-After': '1' });
    }
  });

  it('maps a slow upstream to 504', () => {
    expect(
      upstreamProblem(coded('FST_REPLY_FROM_GATEWAY_TIMEOUT', coded('UND_ERR_HEADERS_TIMEOUT'))).getStatus(),
    ).toBe(504);
    expect(upstreamProblem(coded('UND_ERR_BODY_TIMEOUT')).toBody('/x')).toMatchObject({
      status: 504,
      title: 'Gateway Timeout',
    });
  });

  it('never puts the upstream error text in the body', () => {
    const body = upstreamProblem(new Error('connect ECONNREFUSED 10.0.0.5:3012')).toBody('/orders');
    expect(JSON.stringify(body)).not.toContain('10.0.0.5');
  });
});
