import { TokenExpiredError } from 'jsonwebtoken';

import { unauthorizedDetail } from './merchant-auth.guard';

describe('401 details', () => {
  it('tells an expired token from a missing one, and says nothing more about a bad one', () => {
    expect(unauthorizedDetail(new TokenExpiredError('jwt expired', new Date(0)))).toMatch(/has expired/);
    expect(unauthorizedDetail(new Error('No auth token'))).toMatch(/is required/);
    expect(unauthorizedDetail(new Error('invalid signature'))).toBeUndefined();
    expect(unauthorizedDetail(undefined)).toBeUndefined();
  });
});
