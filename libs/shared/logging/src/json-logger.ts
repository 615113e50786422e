import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger as Pino } from 'pino';

import { currentLogContext } from './log-context';
import { redactSecrets } from './redact';

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

// Nest's LoggerService as one JSON object per line (pino): level, time, service, context (the Nest
// logger name), msg, and requestId / orderUuid / eventId from the log context when there is one.
// Synchronous writes: a fatal configuration error is on stdout before the process exits.
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(service: string, level: LogLevelName = 'info', destination?: DestinationStream) {
    this.pino = pino(
      {
        level,
        base: { service },
        messageKey: 'msg',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination ?? pino.destination({ dest: 1, sync: true }),
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
  // Nest calls error(message, stack?, context?).
  error(message: unknown, ...params: unknown[]): void {
    const context =
      params.length > 0 && typeof params[params.length - 1] === 'string' ? params.pop() : undefined;
    const stack = params.find((p): p is string => typeof p === 'string' && p.includes('\n    at '));
    const err = message instanceof Error ? message : undefined;
    this.emit('error', err ? err.message : message, context as string | undefined, stack ?? err?.stack);
  }

  private write(level: 'debug' | 'info' | 'warn' | 'fatal', message: unknown, params: unknown[]): void {
    const context =
      params.length > 0 && typeof params[params.length - 1] === 'string'
        ? params[params.length - 1]
        : undefined;
    this.emit(level, message, context as string | undefined);
  }

  private emit(
    level: 'debug' | 'info' | 'warn' | 'error' | 'fatal',
    message: unknown,
    context?: string,
    stack?: string,
  ): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = { ...currentLogContext() };
    if (context) fields['context'] = context;
    if (stack) fields['stack'] = redactSecrets(stack);
    const text = typeof message === 'string' ? message : safeStringify(message);
    this.pino[level](fields, redactSecrets(text));
  }
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
