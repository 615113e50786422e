import { Agent, buildConnector, Dispatcher } from 'undici';

import { checkWebhookUrl, connectAddressViolation, parseIp } from '@onramp/webhooks-domain';

import { guardedLookup, Resolver, systemResolver } from './guarded-lookup';

export interface SendInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  sandbox: boolean;
  allowedAddresses?: readonly string[]; // the operator's WEBHOOK_ALLOWED_ADDRESSES
  signal?: AbortSignal;
}

export interface SendResult {
  statusCode: number | null; // null when no response arrived
  retryAfter: string | null;
  error: string | null; // null on 2xx
  durationMs: number;
}

const MAX_ERROR_LENGTH = 500;

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const text = e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : (e.message ?? String(err));
  return text.slice(0, MAX_ERROR_LENGTH);
}

// An idle kept-alive connection is closed after this long (sooner if the receiver's Keep-Alive header
// says so): well under the idle timeouts servers commonly use (5 s and up), so a send never goes out
// on a connection the receiver is closing.
const IDLE_CONNECTION_MS = 2_000;
// A response body is read (and thrown away) up to this size so its connection can carry the next
// send; a larger one costs its connection instead. The result was decided by the status already.
const MAX_RESPONSE_BYTES = 64 * 1024;

// What checking a URL against a policy decided: refused (the attempt's error), or where to send.
type UrlJudgement = { refused: string } | { protocol: 'http:' | 'https:'; origin: string; path: string };

// Judgements kept per process: a few per merchant endpoint, far fewer than this.
const MAX_JUDGEMENTS = 10_000;

type Policy = { sandbox: boolean; allowedAddresses?: readonly string[] };

// One POST of a webhook through an undici Agent (a Pool of kept-alive connections per origin, one
// request at a time on each), not fetch and not node:http: node:http's per-request work (a
// ClientRequest, the agent's bookkeeping, header validation, an abort listener) was most of the
// dispatcher's CPU. The Agent connects through undici's own connector given the guarded lookup, so
// the resolved addresses are judged at every connect exactly as before (DNS rebinding), a literal IP
// by the URL's judgement; redirects are never followed (3xx is a failure: the Agent has no redirect
// interceptor), and the whole exchange up to the response status must finish within the timeout.
// A connection was checked against the policy when it connected, and the policy of a process does
// not change (an Agent per protocol and policy all the same).
export class WebhookSender {
  private readonly agents = new Map<string, Agent>();
  // The URL check is a pure function of the URL and the policy, so it runs once per endpoint URL,
  // not once per send; the resolved addresses are still judged at every connect (guardedLookup).
  private readonly judged = new Map<string, UrlJudgement>();
  // Sends under way by the signal that aborts them: one listener per signal, not one per send.
  private readonly aborters = new Map<AbortSignal, Set<Exchange>>();

  constructor(private readonly resolve: Resolver = systemResolver) {}

  private agentFor(protocol: 'http:' | 'https:', policy: Policy): Agent {
    const key = `${protocol} ${policy.sandbox} ${(policy.allowedAddresses ?? []).join(',')}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({
        connect: buildConnector({ lookup: guardedLookup({ ...policy, protocol }, this.resolve) }),
        pipelining: 1,
        keepAliveTimeout: IDLE_CONNECTION_MS,
        keepAliveMaxTimeout: IDLE_CONNECTION_MS,
        // The send's own timer bounds the exchange (below); these only must not cut it shorter.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  // Closes the kept-alive connections (shutdown); sends still under way are cut.
  close(): void {
    for (const agent of this.agents.values()) void agent.destroy().catch(() => undefined);
    this.agents.clear();
  }

  // The URL was checked at registration; the policy (or the mode) may have changed since, so it is
  // checked again against this process's policy.
  private judge(raw: string, policy: Policy): UrlJudgement {
    const key = `${policy.sandbox} ${(policy.allowedAddresses ?? []).join(',')} ${raw}`;
    let judgement = this.judged.get(key);
    if (judgement === undefined) {
      judgement = judgeUrl(raw, policy);
      if (this.judged.size >= MAX_JUDGEMENTS) this.judged.clear();
      this.judged.set(key, judgement);
    }
    return judgement;
  }

  send(input: SendInput): Promise<SendResult> {
    const started = Date.now();
    const policy = { sandbox: input.sandbox, allowedAddresses: input.allowedAddresses };
    const target = this.judge(input.url, policy);
    if ('refused' in target) {
      return Promise.resolve({ statusCode: null, retryAfter: null, error: target.refused, durationMs: 0 });
    }
    const { signal } = input;
    if (signal?.aborted) {
      return Promise.resolve({ statusCode: null, retryAfter: null, error: 'aborted', durationMs: 0 });
    }
    return new Promise((resolve) => {
      const exchange = new Exchange(started, input.timeoutMs, resolve, () => {
        if (signal) this.aborters.get(signal)?.delete(exchange);
      });
      if (signal) this.watch(signal, exchange);
      this.agentFor(target.protocol, policy).dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers: input.headers,
          body: input.body,
        },
        exchange,
      );
    });
  }

  private watch(signal: AbortSignal, exchange: Exchange): void {
    let under = this.aborters.get(signal);
    if (!under) {
      const sends = new Set<Exchange>();
      under = sends;
      this.aborters.set(signal, sends);
      signal.addEventListener(
        'abort',
        () => {
          this.aborters.delete(signal);
          for (const e of sends) e.cancel(new Error('aborted'));
        },
        { once: true },
      );
    }
    under.add(exchange);
  }
}

// One send's handler. The outcome is decided by the status (or an error, or the timeout before the
// status); it is reported once the response has ended and undici has had the loop turn it takes to
// offer the connection again, so the lane's next send reuses it instead of opening another. The
// body is read and thrown away; a body over MAX_RESPONSE_BYTES or still dribbling at the timeout
// costs its connection, not the outcome. When the timer fires before the request was written, it is
// never written (undici asks the handler before writing).
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private cancelled: Error | null = null;
  private decided: SendResult | null = null;
  private settled = false;
  private received = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly started: number,
    private readonly timeoutMs: number,
    private readonly resolve: (result: SendResult) => void,
    private readonly ended: () => void,
  ) {
    // Bounds the whole exchange up to the status; after it, it only stops a dribbling body.
    this.timer = setTimeout(
      () => this.cancel(new Error(`no response within ${this.timeoutMs} ms`)),
      timeoutMs,
    );
  }

  cancel(err: Error): void {
    this.settle(this.decided ?? this.failed(err.message));
    if (this.controller) this.controller.abort(err);
    else this.cancelled = err; // not written yet: aborted when its connection is ready
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.cancelled) controller.abort(this.cancelled);
    else this.controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // 1xx: the final status follows
    let error: string | null = null;
    if (statusCode >= 300 && statusCode < 400) error = `redirect (HTTP ${statusCode}) not followed`;
    else if (statusCode >= 300) error = `HTTP ${statusCode}`;
    const retryAfter = error === null ? undefined : headers['retry-after'];
    this.decided = {
      statusCode,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
      error,
      durationMs: Date.now() - this.started,
    };
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > MAX_RESPONSE_BYTES) controller.abort(new Error('response body too large'));
  }

  onResponseEnd(): void {
    clearTimeout(this.timer);
    this.ended();
    // undici offers the connection again from a setImmediate it queues after this returns (pipelining
    // 1). One queued from the next tick runs right after it, in the same loop turn, so the lane's next
    // send finds the connection free; a nested setImmediate had cost the send a whole loop turn.
    const decided = this.decided ?? this.failed('no status');
    process.nextTick(() => setImmediate(() => this.settle(decided)));
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    clearTimeout(this.timer);
    this.ended();
    this.settle(this.decided ?? this.failed(describe(err)));
  }

  private failed(error: string): SendResult {
    return { statusCode: null, retryAfter: null, error, durationMs: Date.now() - this.started };
  }

  private settle(result: SendResult): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(result);
  }
}

function judgeUrl(
  raw: string,
  policy: { sandbox: boolean; allowedAddresses?: readonly string[] },
): UrlJudgement {
  const check = checkWebhookUrl(raw, policy);
  if (!check.ok) return { refused: `url refused by policy: ${check.reason}` };
  const url = new URL(check.url);
  const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
  // A literal IP never goes through lookup, so it is judged here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (parseIp(host)) {
    const violation = connectAddressViolation(host, { ...policy, protocol });
    if (violation) return { refused: `address ${host} refused by policy: ${violation}` };
  }
  return { protocol, origin: url.origin, path: `${url.pathname}${url.search}` };
}
