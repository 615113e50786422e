import { ApiTarget, describeConnectionFailure } from './api-client';

const target: ApiTarget = {
  label: 'admin API',
  baseUrl: 'http://ops:secret@127.0.0.1:3002',
  urlFlag: '--admin-url',
  urlEnv: 'ONRAMP_ADMIN_URL',
  headers: {},
};

const fetchFailure = (cause: Error) => new TypeError('fetch failed', { cause });
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('describeConnectionFailure', () => {
  it('names the cause from deep in the fetch error and says what to check', () => {
    const text = describeConnectionFailure(
      fetchFailure(withCode('connect ECONNREFUSED', 'ECONNREFUSED')),
      target,
    );
    expect(text).toBe(
      'cannot reach the admin API at http://127.0.0.1:3002 (connection refused). ' +
        'Is the platform running (npm start)? Point the CLI elsewhere with --admin-url or ONRAMP_ADMIN_URL.',
    );
  });

  it('reads the first error of an aggregate (one per address tried)', () => {
    const aggregate = new AggregateError([withCode('getaddrinfo', 'ENOTFOUND')], 'all failed');
    expect(describeConnectionFailure(fetchFailure(aggregate), target)).toContain('(host not found)');
  });

  it('reports a timeout as such', () => {
    const timeout = Object.assign(new Error('aborted'), { name: 'TimeoutError' });
    expect(describeConnectionFailure(timeout, target)).toContain('(no answer within 15 s)');
  });

  it('never shows credentials embedded in the URL', () => {
    expect(describeConnectionFailure(new Error('x'), target)).not.toContain('secret');
  });
});
