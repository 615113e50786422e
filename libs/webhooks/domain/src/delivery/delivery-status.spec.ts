import { classifyResponse } from './delivery-status';

describe('classifyResponse', () => {
  it.each([200, 201, 202, 204, 299])('%s is delivered', (code) =>
    expect(classifyResponse(code)).toBe('delivered'),
  );
  it('410 Gone disables the endpoint', () => expect(classifyResponse(410)).toBe('gone'));
  it.each([100, 301, 302, 307, 308, 400, 404, 429, 500, 503])('%s is a failure to retry', (code) =>
    expect(classifyResponse(code)).toBe('failed'),
  );
});
