import { IncomingMessage } from 'node:http';

import { FastifyRequest } from 'fastify';

import { ProblemException } from '@onramp/http';

export type BodyDone = (err: Error | null, body?: Buffer) => void;

const tooLarge = (limit: number, closeConnection: boolean): ProblemException =>
  new ProblemException(413, `request body is too large (limit ${limit} bytes)`, {
    headers: closeConnection ? { Connection: 'close' } : {},
  });

// Buffers the body as raw bytes (forwarded untouched) up to `limit`. An oversized body is read to
// its end and thrown away before the 413 goes out: answering mid-upload and closing would make the
// kernel reset the connection, and the client would see ECONNRESET instead of the 413.
// Past `drainCap` bytes we stop reading and the 413 closes the connection.
export function bodyCollector(limit: number, drainCap = Math.max(limit * 16, 16 * 1024 * 1024)) {
  return (req: FastifyRequest, payload: IncomingMessage, done: BodyDone): void => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > drainCap) {
      done(tooLarge(limit, true));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    let finished = false;
    const finish = (err: Error | null, body?: Buffer): void => {
      if (finished) return;
      finished = true;
      done(err, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size > limit) {
        over = true;
        chunks.length = 0;
      }
      if (!over) chunks.push(chunk);
      else if (size > drainCap) finish(tooLarge(limit, true));
    });
    payload.on('end', () =>
      over ? finish(tooLarge(limit, false)) : finish(null, Buffer.concat(chunks, size)),
    );
    payload.on('error', (err) => finish(err));
  };
}
