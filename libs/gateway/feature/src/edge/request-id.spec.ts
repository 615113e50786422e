import { requestIdFor } from './request-id';

describe('requestIdFor', () => {
  it('keeps a sane caller id', () => {
    expect(requestIdFor('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    expect(requestIdFor(['first', 'second'])).toBe('first');
  });

  it('replaces missing, oversized or injection-prone ids with a uuid', () => {
    for (const bad of [undefined, '', 'a'.repeat(129), 'x\r\nSet-Cookie: a=b', 'has space']) {
      expect(requestIdFor(bad)).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
  });
});
