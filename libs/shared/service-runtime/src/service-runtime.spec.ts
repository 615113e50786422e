import { loadServiceRuntime } from './service-runtime';

describe('loadServiceRuntime', () => {
  const sandbox = {
    ONRAMP_MODE: 'sandbox',
    EVENT_TRANSPORT: 'embedded',
    DATABASE_URL: 'postgres://db/onramp',
  };

  it('gives every part when none is named', () => {
    const runtime = loadServiceRuntime(sandbox);
    expect(Object.keys(runtime)).toEqual([
      'logging',
      'tracing',
      'metrics',
      'callers',
      'merchantAuth',
      'transport',
      'database',
    ]);
    expect(runtime.transport).toMatchObject({ kind: 'embedded', databaseUrl: 'postgres://db/onramp' });
  });

  it('parses only the parts a service names, so it needs no settings of the others', () => {
    const source = { ...sandbox, EVENT_TRANSPORT: 'carrier-pigeon' };
    expect(() => loadServiceRuntime(source)).toThrow(/EVENT_TRANSPORT/);
    const runtime = loadServiceRuntime(source, ['metrics', 'logging']);
    expect(Object.keys(runtime)).toEqual(['logging', 'metrics']);
  });
});
