import { createWriteStream, WriteStream } from 'node:fs';
import { format } from 'node:util';

import { LoggerService, LogLevel } from '@nestjs/common';

// The one Nest logger of the embedded process: seven apps' lines go to one file (the terminal keeps
// the start-up banner), and to stdout too with `echo`.
export class FileLogger implements LoggerService {
  private readonly stream: WriteStream;
  private levels = new Set<LogLevel>(['log', 'warn', 'error', 'fatal']);

  constructor(
    file: string,
    private readonly echo = false,
  ) {
    this.stream = createWriteStream(file, { flags: 'a' });
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  setLogLevels(levels: LogLevel[]): void {
    this.levels = new Set(levels);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }

  // Nest passes the context last: log(message, context), error(message, stack, context).
  private write(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (!this.levels.has(level)) return;
    const params = [...rest];
    const context = params.length > 0 && typeof params.at(-1) === 'string' ? String(params.pop()) : '';
    const extra = params.filter((p) => p !== undefined).map((p) => `\n${format(p)}`);
    const text = message instanceof Error ? (message.stack ?? message.message) : format(message);
    const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(7)} ${context ? `[${context}] ` : ''}${text}${extra.join('')}\n`;
    if (!this.stream.writableEnded) this.stream.write(line);
    if (this.echo) process.stdout.write(line);
  }
}
