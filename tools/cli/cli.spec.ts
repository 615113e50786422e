import { describeError, runCli } from './cli';
import { ApiError, ConnectionError, ExitCode, UsageError } from './cli-errors';

describe('describeError', () => {
  it('shows the problem detail, each invalid field and the hint', () => {
    const err = new ApiError(
      400,
      {
        title: 'Bad Request',
        detail: 'the request has invalid fields',
        errors: [{ field: 'amount', message: 'amount must be a positive number with at most 2 decimals' }],
      },
      'check the amount',
    );
    expect(describeError(err)).toBe(
      [
        'onramp: 400 Bad Request: the request has invalid fields',
        '  amount: amount must be a positive number with at most 2 decimals',
        'hint: check the amount',
        '',
      ].join('\n'),
    );
  });

  it('prints a usage error with the usage under it', () => {
    expect(describeError(new UsageError('missing <uuid>', 'Usage: onramp orders get <uuid>\n'))).toBe(
      'onramp: missing <uuid>\n\nUsage: onramp orders get <uuid>\n',
    );
  });

  it('maps each kind of failure to its exit code', () => {
    expect(new UsageError('x').exitCode).toBe(ExitCode.Usage);
    expect(new ApiError(404, {}).exitCode).toBe(ExitCode.Api);
    expect(new ConnectionError('x').exitCode).toBe(ExitCode.Connection);
  });
});

describe('runCli', () => {
  it('prints help on stdout with exit 0 and a usage error on stderr with exit 2', async () => {
    const out = { stdout: jest.fn(), stderr: jest.fn() };
    expect(await runCli(['--help'], {}, out)).toBe(0);
    expect(out.stdout).toHaveBeenCalledWith(expect.stringContaining('Usage: onramp'));
    expect(await runCli(['merchants', 'fly'], {}, out)).toBe(2);
    expect(out.stderr).toHaveBeenCalledWith(expect.stringContaining('unknown command "merchants fly"'));
  });
});
