import { UsageError } from './cli-errors';
import { parseCommandLine } from './parse-command-line';

const KEY = { ADMIN_API_KEY: 'k' };
const MERCHANT = '0b7d3c1e-5a7f-4d1e-9a53-2f6f1c1d2e3f';

function usageError(argv: string[], env: NodeJS.ProcessEnv = KEY): UsageError {
  try {
    parseCommandLine(argv, env);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

function run(argv: string[], env: NodeJS.ProcessEnv = KEY) {
  const parsed = parseCommandLine(argv, env);
  if (parsed.kind !== 'run') throw new Error('expected a command');
  return parsed;
}

describe('parseCommandLine', () => {
  it('finds the command, its arguments and options, with global options anywhere', () => {
    const parsed = run([
      '--json',
      'orders',
      'list',
      '--status',
      'FAILED',
      '--merchant',
      MERCHANT,
      '--limit',
      '5',
    ]);
    expect(parsed.command.name).toBe('orders list');
    expect(parsed.options).toEqual({ status: 'FAILED', merchant: MERCHANT, limit: '5', offset: undefined });
    expect(parsed.settings).toEqual({
      adminUrl: 'http://127.0.0.1:3002',
      baseUrl: 'http://127.0.0.1:3000',
      adminKey: 'k',
      json: true,
    });
    expect(run(['merchants', 'rotate-secret', MERCHANT]).args).toEqual({ merchantId: MERCHANT });
  });

  it('takes URLs and keys from flags first, then env, then defaults', () => {
    const env = { ADMIN_API_KEY: 'from-env', ONRAMP_ADMIN_URL: 'http://admin.local:9/', ONRAMP_BASE_URL: '' };
    expect(run(['merchants', 'list'], env).settings).toMatchObject({
      adminUrl: 'http://admin.local:9',
      baseUrl: 'http://127.0.0.1:3000',
      adminKey: 'from-env',
    });
    const flags = ['merchants', 'list', '--admin-url', 'https://ops.example', '--admin-key', 'from-flag'];
    expect(run(flags, env).settings).toMatchObject({
      adminUrl: 'https://ops.example',
      adminKey: 'from-flag',
    });
  });

  it('reads merchant credentials for the sandbox from env when the flags are absent', () => {
    const parsed = run(['sandbox', 'credit', '--reference', 'RF18539007547034', '--amount', '10.50'], {
      ONRAMP_MERCHANT_ID: MERCHANT,
      ONRAMP_MERCHANT_SECRET: 's3cret',
    });
    expect(parsed.options).toMatchObject({
      amount: '10.50',
      'merchant-id': MERCHANT,
      'merchant-secret': 's3cret',
      status: undefined,
    });
  });

  it('answers --help at every level without needing an admin key', () => {
    for (const argv of [['--help'], ['orders', '-h'], ['orders', 'get', '--help']]) {
      const parsed = parseCommandLine(argv, {});
      expect(parsed.kind).toBe('help');
    }
    const help = parseCommandLine(['sandbox', 'credit', '--help'], {});
    expect(help.kind === 'help' && help.text).toContain('--merchant-secret SECRET');
  });

  it.each([
    [[], 'missing command'],
    [['payouts', 'list'], 'unknown command "payouts"'],
    [['orders'], 'missing orders command'],
    [['orders', 'delete', MERCHANT], 'unknown command "orders delete"'],
    [['orders', 'get'], 'missing <uuid>'],
    [['orders', 'get', MERCHANT, 'extra'], 'unexpected argument "extra"'],
    [['orders', 'get', 'not-a-uuid'], '<uuid> must be a UUID'],
    [['orders', 'list', '--status', 'PAID'], '--status must be one of CREATED, COMPLETED, FAILED'],
    [['deliveries', 'list', '--status', 'SENT'], '--status must be one of PENDING, NO_ENDPOINT'],
    [['orders', 'list', '--limit', '51'], '--limit must be an integer from 1 to 50'],
    [['orders', 'list', '--name', 'x'], '--name does not apply to "orders list"'],
    [['orders', 'list', '--bogus'], 'unknown option --bogus'],
    [['merchants', 'create'], 'missing --name'],
    [['merchants', 'create', '--name', '  '], '--name must not be empty'],
    [['merchants', 'list', '--admin-url', 'ftp://x'], '--admin-url must be an http(s) URL'],
  ])('refuses %j: %s', (argv, message) => {
    expect(usageError(argv).message).toContain(message);
  });

  it('refuses amounts that are not exact positive EUR', () => {
    const credit = (amount: string) => [
      'sandbox',
      'credit',
      '--reference',
      'RF18',
      '--amount',
      amount,
      '--merchant-id',
      MERCHANT,
      '--merchant-secret',
      's',
    ];
    for (const bad of ['0', '0.00', '10.505', '-1', '1e3', '10,50', 'ten']) {
      expect(usageError(credit(bad)).message).toMatch(
        /^--amount must be a positive EUR amount|argument is ambiguous/,
      );
    }
    expect(run(credit('0.01')).options.amount).toBe('0.01');
  });

  it('needs an admin key for admin commands, and never echoes a bad value back', () => {
    expect(usageError(['merchants', 'list'], {}).message).toContain('no admin API key');
    const err = usageError(
      ['sandbox', 'credit', '--reference', 'R', '--amount', '1', '--merchant-secret', 'hunter2'],
      {
        ONRAMP_MERCHANT_ID: 'hunter3',
      },
    );
    expect(err.message).toBe('--merchant-id must be a UUID');
  });
});

describe('version and did you mean', () => {
  it('prints the version of @onramp/cli', () => {
    const parsed = parseCommandLine(['--version'], {});
    expect(parsed).toEqual({ kind: 'help', text: expect.stringMatching(/^onramp \d+\.\d+\.\d+\n$/) });
  });

  it.each([
    [['merchnts', 'list'], 'unknown command "merchnts"; did you mean "merchants"?'],
    [['orders', 'lsit'], 'unknown command "orders lsit"; did you mean "list"?'],
    [['orders', 'list', '--stauts', 'FAILED'], 'unknown option --stauts; did you mean "--status"?'],
    [['payouts', 'list'], 'unknown command "payouts"'],
  ])('%j: %s', (argv, message) => {
    expect(() => parseCommandLine(argv, {})).toThrow(message);
  });
});
