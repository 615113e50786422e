import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

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

// One POST of a webhook with node:http(s), not fetch: a custom lookup enforces the address policy at
// connect time, redirects are never followed (3xx is a failure), and the whole exchange up to the
// response status must finish within the timeout. Connections are kept alive between sends to the
// same host: a connection was checked against the policy when it connected, and the policy of a
// process does not change (an agent per policy all the same); a new TCP connection per webhook had
// cost both ends more than the request itself.
// What checking a URL against a policy decided: refused (the attempt's error), or where to send.
type UrlJudgement =
  | { refused: string }
  | { protocol: 'http:' | 'https:'; hostname: string; port: string; path: string };

// Judgements kept per process: a few per merchant endpoint, far fewer than this.
const MAX_JUDGEMENTS = 10_000;

export class WebhookSender {
  private readonly agents = new Map<string, HttpAgent>();
  // The URL check is a pure function of the URL and the policy, so it runs once per endpoint URL,
  // not once per send; the resolved addresses are still judged at every connect (guardedLookup).
  private readonly judged = new Map<string, UrlJudgement>();

  constructor(private readonly resolve: Resolver = systemResolver) {}

  private agentFor(
    protocol: 'http:' | 'https:',
    policy: { sandbox: boolean; allowedAddresses?: readonly string[] },
  ): HttpAgent {
    const key = `${protocol} ${policy.sandbox} ${(policy.allowedAddresses ?? []).join(',')}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };
      agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }

  // Closes the kept-alive connections (shutdown).
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  // The URL was checked at registration; the policy (or the mode) may have changed since, so it is
  // checked again against this process's policy.
  private judge(raw: string, policy: { sandbox: boolean; allowedAddresses?: readonly string[] }): UrlJudgement {
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
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
      ...r,
      durationMs: Date.now() - started,
    });
    const refused = (error: string) => Promise.resolve(done({ statusCode: null, retryAfter: null, error }));

    const policy = { sandbox: input.sandbox, allowedAddresses: input.allowedAddresses };
    const target = this.judge(input.url, policy);
    if ('refused' in target) return refused(target.refused);
    const { protocol } = target;

    const body = Buffer.from(input.body, 'utf8');
    const request = protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        resolve(done(r));
      };
      const req = request(
        {
          protocol,
          hostname: target.hostname,
          port: target.port,
          path: target.path,
          method: 'POST',
          headers: { ...input.headers, 'Content-Length': String(body.length) },
          agent: this.agentFor(protocol, policy),
          lookup: guardedLookup({ ...policy, protocol }, this.resolve),
          signal: input.signal,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const retryAfter = res.headers['retry-after'] ?? null;
          res.resume(); // the response body is not used; drain it
          let error: string | null = null;
          if (status >= 300 && status < 400) error = `redirect (HTTP ${status}) not followed`;
          else if (status < 200 || status >= 300) error = `HTTP ${status}`;
          finish({ statusCode: status, retryAfter, error });
        },
      );
      // Bounds the whole exchange; after the status arrived it only stops a dribbling body.
      const timer = setTimeout(() => {
        finish({ statusCode: null, retryAfter: null, error: `no response within ${input.timeoutMs} ms` });
        req.destroy();
      }, input.timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err) => finish({ statusCode: null, retryAfter: null, error: describe(err) }));
      req.end(body);
    });
  }
}

function judgeUrl(raw: string, policy: { sandbox: boolean; allowedAddresses?: readonly string[] }): UrlJudgement {
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
  return { protocol, hostname: host, port: url.port, path: `${url.pathname}${url.search}` };
}
