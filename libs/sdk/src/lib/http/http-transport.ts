import { Clock } from '../clock';
import { OnrampApiError, toProblem } from './onramp-api.error';
import { IssuedToken, TokenCache } from './token-cache';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type ApiHost = 'base' | 'kyc';

export interface ApiRequest {
  host: ApiHost; // base: /orders, /merchant/webhook, /sandbox; kyc: /kyc
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown; // sent as JSON
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TransportOptions {
  baseUrl: string;
  kycUrl: string;
  merchantId: string;
  merchantSecret: string;
  fetch: FetchLike;
  clock: Clock;
}

const USER_AGENT = 'onramp-sdk-node/0.1';

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

// Bearer auth for every call: a cached token, and on a 401 one fresh token and one retry
// (docs/api.md, Authentication 3). Non-2xx answers become OnrampApiError.
export class HttpTransport {
  private readonly tokens: TokenCache;

  constructor(private readonly options: TransportOptions) {
    this.tokens = new TokenCache(() => this.issueToken(), options.clock);
  }

  accessToken(): Promise<string> {
    return this.tokens.get();
  }

  async send<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const url = this.urlOf(request);
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const attempt = async () => {
      const token = await this.tokens.get();
      const response = await this.options.fetch(url, {
        method: request.method,
        headers: {
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...request.headers,
          authorization: `Bearer ${token}`,
        },
        body,
      });
      return { token, response };
    };
    const first = await attempt();
    if (first.response.status !== 401) return this.read<T>(first.response, { method: request.method, url });
    await first.response.arrayBuffer().catch(() => undefined); // frees the connection
    this.tokens.invalidate(first.token);
    const retry = await attempt(); // once: a second 401 is the caller's to see
    return this.read<T>(retry.response, { method: request.method, url });
  }

  private async issueToken(): Promise<IssuedToken> {
    const { baseUrl, merchantId, merchantSecret } = this.options;
    const url = `${trimSlash(baseUrl)}/auth/token`;
    const basic = Buffer.from(`${merchantId}:${merchantSecret}`, 'utf8').toString('base64');
    const response = await this.options.fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json', 'user-agent': USER_AGENT },
    });
    const { body } = await this.read<Record<string, unknown>>(response, { method: 'POST', url });
    const accessToken = body?.['access_token'];
    const expiresIn = body?.['expires_in'];
    if (typeof accessToken !== 'string' || typeof expiresIn !== 'number' || !(expiresIn > 0))
      throw new Error(`POST ${url}: the token response lacks access_token or expires_in`);
    return { accessToken, expiresInSeconds: expiresIn };
  }

  private urlOf({ host, path, query }: ApiRequest): string {
    const root = trimSlash(host === 'kyc' ? this.options.kycUrl : this.options.baseUrl);
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {}))
      if (value !== undefined) params.set(key, String(value));
    const search = params.toString();
    return `${root}${path}${search ? `?${search}` : ''}`;
  }

  private async read<T>(
    response: Response,
    request: { method: string; url: string },
  ): Promise<ApiResponse<T>> {
    const body = parseJson(await response.text());
    if (!response.ok)
      throw new OnrampApiError(
        response.status,
        toProblem(response.status, response.statusText, body),
        response.headers,
        request,
      );
    return { status: response.status, headers: response.headers, body: body as T };
  }
}
