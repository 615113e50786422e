// Exit codes are the CLI's contract with scripts: 0 ok, 1 the API said no, 2 the command line is
// wrong, 3 the API could not be reached.
export const ExitCode = { Ok: 0, Api: 1, Usage: 2, Connection: 3 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  constructor(
    message: string,
    readonly usage?: string, // the help of the command that was meant, shown under the message
  ) {
    super(message, ExitCode.Usage);
  }
}

export class ConnectionError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.Connection);
  }
}

export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  errors?: { field: string; message: string }[];
}

// The API answered with an error status: its problem+json (RFC 9457) is what the operator sees.
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly problem: ProblemDetails,
    readonly hint?: string,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`, ExitCode.Api);
  }
}
