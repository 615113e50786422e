import { parseBasicCredentials } from './basic-credentials';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

describe('parseBasicCredentials', () => {
  it('splits id and secret at the first colon', () => {
    expect(parseBasicCredentials(basic('merchant-1:se:cr:et'))).toEqual({
      clientId: 'merchant-1',
      clientSecret: 'se:cr:et',
    });
  });

  it('accepts the scheme in any case and surrounding spaces', () => {
    expect(parseBasicCredentials(`  bAsIc ${Buffer.from('a:b').toString('base64')} `)).toEqual({
      clientId: 'a',
      clientSecret: 'b',
    });
  });

  it.each([
    ['missing header', undefined],
    ['empty header', ''],
    ['another scheme', 'Bearer abc'],
    ['no credentials after the scheme', 'Basic'],
    ['not base64', 'Basic !!!notbase64'],
    ['bad padding', 'Basic YTpi='],
    ['no colon', basic('merchant')],
    ['empty id', basic(':secret')],
    ['empty secret', basic('merchant:')],
    ['two tokens', `Basic ${Buffer.from('a:b').toString('base64')} extra`],
  ])('returns undefined for %s', (_label, header) => {
    expect(parseBasicCredentials(header)).toBeUndefined();
  });
});
