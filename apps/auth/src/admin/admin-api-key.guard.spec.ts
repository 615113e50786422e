import { presentedAdminKey } from './admin-api-key.guard';

describe('presentedAdminKey', () => {
  it('reads X-Admin-Key first', () => {
    expect(presentedAdminKey({ 'x-admin-key': 'k1', authorization: 'Bearer k2' })).toBe('k1');
  });

  it('reads a Bearer Authorization header in any case', () => {
    expect(presentedAdminKey({ authorization: 'bearer k2' })).toBe('k2');
  });

  it('ignores other schemes and missing headers', () => {
    expect(presentedAdminKey({ authorization: 'Basic azI=' })).toBeUndefined();
    expect(presentedAdminKey({})).toBeUndefined();
  });
});
