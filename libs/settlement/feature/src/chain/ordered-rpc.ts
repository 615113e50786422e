import { Client } from 'undici';

// At most this many calls are on the wire at once; the in-flight pass sends up to 100.
const PIPELINE_DEPTH = 128;

// An answer of the node that is a JSON-RPC error. `error` is the node's own object, where the
// broadcast-error classification looks for its message ("already known", "nonce too low", ...).
export class RpcAnswerError extends Error {
  constructor(
    readonly method: string,
    readonly error: { code?: number; message?: string },
  ) {
    super(`${method}: ${error.message ?? 'error'} (code ${error.code ?? '?'})`);
  }
}

// An HTTP answer that is not a JSON-RPC answer (a proxy's 502, a rate limiter's 429): transient.
export class RpcHttpError extends Error {
  readonly code = 'SERVER_ERROR';

  constructor(
    readonly method: string,
    readonly status: number,
  ) {
    super(`${method}: HTTP ${status} from the node`);
  }
}

// JSON-RPC calls that reach the node in the order they are made, without waiting for one answer
// before sending the next: one kept-alive HTTP/1.1 connection, requests pipelined. HTTP/1.1 servers
// (hyper in anvil and reth, Go's net/http in geth and Nitro, Node's own) read a connection's next
// request only once they have answered the one before, so the node handles them in this order; that
// is what lets a signer's transactions go out back to back without a node ever seeing a nonce gap.
// (A JSON-RPC batch does not: a node may take a batch's calls in any order, and anvil does.)
//
// undici pipelines only requests it may send again and that do not block the connection, hence
// `idempotent: true` and `blocking: false`. Sending a signed transaction again is harmless: the
// chain takes the same bytes once, and the node answers "already known".
export class OrderedRpcConnection {
  private readonly client: Client;
  private readonly path: string;
  private readonly headers: Record<string, string>;
  private nextId = 1;

  constructor(rpcUrl: string, timeoutMs: number) {
    const url = new URL(rpcUrl);
    this.path = `${url.pathname}${url.search}`;
    this.headers = { 'content-type': 'application/json' };
    if (url.username || url.password) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      this.headers['authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    this.client = new Client(url.origin, {
      pipelining: PIPELINE_DEPTH,
      // Our own deadline (RPC_TIMEOUT_MS, on every call) fires first and names the call; these free the socket.
      headersTimeout: timeoutMs + 1000,
      bodyTimeout: timeoutMs + 1000,
      keepAliveTimeout: 4_000,
    });
  }

  async call(method: string, params: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    const res = await this.client.request({
      method: 'POST',
      path: this.path,
      headers: this.headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      idempotent: true,
      blocking: false,
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw new RpcHttpError(method, res.statusCode);
    }
    const answer = (await res.body.json()) as {
      result?: unknown;
      error?: { code?: number; message?: string };
    };
    if (answer.error) throw new RpcAnswerError(method, answer.error);
    return answer.result;
  }

  async close(): Promise<void> {
    await this.client.destroy();
  }
}
