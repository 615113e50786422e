import { loadMetricsAccess, mayReadMetrics } from './metrics-access';

describe('metrics access', () => {
  it('needs the bearer token when METRICS_TOKEN is set, in any mode', () => {
    const access = loadMetricsAccess({ METRICS_TOKEN: 'scrape-me' });
    expect(mayReadMetrics(access, 'Bearer scrape-me')).toBe(true);
    expect(mayReadMetrics(access, 'bearer scrape-me')).toBe(true);
    expect(mayReadMetrics(access, 'Bearer scrape-mf')).toBe(false);
    expect(mayReadMetrics(access, undefined)).toBe(false);
  });

  it('without a token: open in sandbox, closed in production', () => {
    expect(mayReadMetrics(loadMetricsAccess({}), undefined)).toBe(true);
    expect(mayReadMetrics(loadMetricsAccess({ ONRAMP_MODE: 'production' }), 'Bearer x')).toBe(false);
  });
});
