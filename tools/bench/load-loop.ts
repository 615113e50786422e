import { Agent, request } from 'node:http';

import { summarize, Summary } from './stats';

export interface LoadOptions {
  url: string;
  urls?: string[]; // several targets, taken in turn (overrides url)
  method?: string;
  headers?: Record<string, string>;
  body: () => string; // a fresh body per request (unique fields, if any)
  concurrency: number;
  durationMs: number;
  expectStatus: number;
}

export interface LoadResult extends Summary {
  samples: number[]; // each answered request's latency (ms), to merge the summaries of several runs
  perSecond: number;
  errors: number;
  firstError?: string;
}

// A closed-loop load generator: `concurrency` keep-alive connections, each sending its next request
// as soon as the previous answer arrived, for `durationMs`. The same loop drives the platform and
// its baseline, so the generator's own cost is the same on both sides.
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const targets = (opts.urls ?? [opts.url]).map((u) => new URL(u));
  let turn = 0;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const deadline = Date.now() + opts.durationMs;
  const t0 = Date.now();
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const body = opts.body();
      const target = targets[turn++ % targets.length];
      const started = performance.now();
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: opts.method ?? 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...opts.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === opts.expectStatus) latencies.push(performance.now() - started);
            else {
              errors++;
              firstError ??= `${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`;
            }
            resolve();
          });
        },
      );
      req.on('error', (err) => {
        errors++;
        firstError ??= err.message;
        resolve();
      });
      req.end(body);
    });
  const worker = async (): Promise<void> => {
    while (Date.now() < deadline) await one();
  };
  await Promise.all(Array.from({ length: opts.concurrency }, () => worker()));
  const elapsed = (Date.now() - t0) / 1000;
  agent.destroy();
  return {
    ...summarize(latencies),
    samples: latencies,
    perSecond: latencies.length / elapsed,
    errors,
    firstError,
  };
}
