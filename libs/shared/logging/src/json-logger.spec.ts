import { Writable } from 'node:stream';

import { logFormat } from './app-logger';
import { JsonLogger } from './json-logger';
import { addLogContext, withLogContext } from './log-context';
import { redactSecrets } from './redact';

function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('JsonLogger', () => {
  it('writes one JSON object per line with service, level, context and message', () => {
    const out = capture();
    const logger = new JsonLogger('orders', 'info', out.stream);
    logger.log('listening', 'NestApplication');
    logger.debug('not at info level', 'X');
    logger.warn('slow');
    const [first, second] = out.lines();
    expect(first).toMatchObject({
      level: 'info',
      service: 'orders',
      context: 'NestApplication',
      msg: 'listening',
    });
    expect(typeof first!['time']).toBe('string');
    expect(second).toMatchObject({ level: 'warn', msg: 'slow' });
    expect(out.lines()).toHaveLength(2);
  });

  it('adds the request id and the order uuid of the current context', async () => {
    const out = capture();
    const logger = new JsonLogger('chain-settlement', 'debug', out.stream);
    await withLogContext({ requestId: 'req-1' }, async () => {
      await Promise.resolve();
      addLogContext({ orderUuid: '0b6f7c1e-3f1a-4a8e-9a34-4f2f0e3b9d10' });
      logger.log('settled', 'SettlementWorker');
    });
    logger.log('outside');
    const [inside, outside] = out.lines();
    expect(inside).toMatchObject({ requestId: 'req-1', orderUuid: '0b6f7c1e-3f1a-4a8e-9a34-4f2f0e3b9d10' });
    expect(outside!['requestId']).toBeUndefined();
  });

  it('logs errors with their stack and context, and masks secrets', () => {
    const out = capture();
    const logger = new JsonLogger('auth', 'info', out.stream);
    logger.error('connect failed postgres://onramp:s3cr3t@db:5432/x', 'Error: x\n    at y (z.js:1:1)', 'Db');
    const [line] = out.lines();
    expect(line).toMatchObject({
      level: 'error',
      context: 'Db',
      msg: 'connect failed postgres://onramp:[redacted]@db:5432/x',
    });
    expect(String(line!['stack'])).toContain('at y');
    expect(JSON.stringify(line)).not.toContain('s3cr3t');
  });
});

describe('redactSecrets', () => {
  it('masks bearer tokens, JWTs, URL passwords and key=value secrets, and keeps transaction hashes', () => {
    const hash = '0x' + 'ab'.repeat(32);
    expect(redactSecrets('Authorization: Bearer abc.def.ghijkl')).toBe('Authorization: Bearer [redacted]');
    expect(redactSecrets('token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln')).toBe('token [redacted-jwt]');
    expect(redactSecrets('amqp://u:p4ss@host')).toBe('amqp://u:[redacted]@host');
    expect(redactSecrets('password=hunter2 secret: "x1"')).toBe('password=[redacted] secret: "[redacted]"');
    expect(redactSecrets(`tx ${hash} mined`)).toBe(`tx ${hash} mined`);
  });
});

describe('logFormat', () => {
  it('is json in production and pretty in sandbox unless LOG_FORMAT says otherwise', () => {
    expect(logFormat({ ONRAMP_MODE: 'production' })).toBe('json');
    expect(logFormat({})).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: 'json' })).toBe('json');
    expect(logFormat({ ONRAMP_MODE: 'production', LOG_FORMAT: 'pretty' })).toBe('pretty');
    expect(() => logFormat({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be one of json, pretty/);
  });
});
