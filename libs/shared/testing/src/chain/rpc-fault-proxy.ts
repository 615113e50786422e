import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

import { Transaction } from 'ethers';

// What the proxy does to JSON-RPC traffic on its way to the real node:
// pass: nothing. hang: never answers (a node that stopped responding).
// lose-send-answers: eth_sendRawTransaction reaches the node, but its answer never comes back.
// hide-receipts-until-send: receipts look "not mined" until a transaction is sent (a lagging node).
// unavailable: HTTP 503, nothing forwarded (an overloaded node or its load balancer).
// drop: the connection is cut before anything is forwarded.
// slow: forwarded and answered `delayMs` late, so a send lands on chain after the caller gave up.
// intrinsic-gas: a send whose gas limit is below `minGas` is refused with "intrinsic gas too low"
// and not forwarded, as an L2 node does when the limit does not cover the L1 data cost; only the
// sends of `gasNonces` when set.
export type RpcFault =
  | 'pass'
  | 'hang'
  | 'lose-send-answers'
  | 'hide-receipts-until-send'
  | 'unavailable'
  | 'drop'
  | 'slow'
  | 'intrinsic-gas';

interface RpcRequest {
  id?: unknown;
  method?: string;
  params?: unknown[];
}

interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { message?: string };
}

export interface RpcFaultProxy {
  url: string;
  fault: RpcFault;
  // share of requests the fault meets (0..1, default 1); the others pass. The first request a newly
  // set fault targets always meets it, so a phase with a rate below 1 never passes without a fault.
  rate: number;
  methods?: string[]; // when set, the fault meets only requests carrying one of these calls
  delayMs: number; // how late a 'slow' answer comes
  minGas: bigint; // the least gas limit an 'intrinsic-gas' node takes
  gasNonces?: number[]; // when set, 'intrinsic-gas' refuses only sends of these nonces
  // requests the fault met, and how many of them carried an eth_sendRawTransaction
  injected: Partial<Record<RpcFault, { requests: number; sends: number }>>;
  // eth_sendRawTransaction answers the node gave (error messages, or "ok")
  sendAnswers: string[];
  close(): Promise<void>;
}

// A real anvil behind a misbehaving network: faults are injected in transit, the chain stays real.
export async function startRpcFaultProxy(upstream: string): Promise<RpcFaultProxy> {
  const hung = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  let receiptsHidden = true;
  let lastMet: RpcFault = 'pass'; // the fault set when a request last met one
  const proxy: RpcFaultProxy = {
    url: '',
    fault: 'pass',
    rate: 1,
    delayMs: 0,
    minGas: 0n,
    injected: {},
    sendAnswers: [],
    close: async () => undefined,
  };
  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const sends = calls.some((c) => c.method === 'eth_sendRawTransaction');
    const targeted = !proxy.methods || calls.some((c) => proxy.methods?.includes(c.method ?? ''));
    const firstOfFault = proxy.fault !== lastMet;
    const fault = !targeted || (!firstOfFault && Math.random() >= proxy.rate) ? 'pass' : proxy.fault;
    if (fault !== 'pass') lastMet = fault;
    if (fault !== 'pass') {
      const seen = (proxy.injected[fault] ??= { requests: 0, sends: 0 });
      seen.requests++;
      if (sends) seen.sends++;
    }
    if (fault === 'hang') return void hung.add(res);
    if (fault === 'unavailable') return void res.writeHead(503).end('service unavailable');
    if (fault === 'drop') return void req.socket.destroy();
    if (fault === 'slow') await later(proxy.delayMs);
    if (proxy.fault !== 'hide-receipts-until-send') receiptsHidden = true;

    if (fault === 'intrinsic-gas') {
      const refused = calls.filter((c) => isSendBelow(c, proxy.minGas, proxy.gasNonces));
      if (refused.length > 0) return void answerRefusingGas(res, parsed, calls, refused, proxy, upstream);
    }
    const answer = await forward(upstream, body);
    const text = answer.body;
    const answers = JSON.parse(text) as RpcAnswer | RpcAnswer[];
    const list = Array.isArray(answers) ? answers : [answers];
    for (const a of list) {
      const call = calls.find((c) => c.id === a.id);
      if (call?.method === 'eth_sendRawTransaction') proxy.sendAnswers.push(a.error?.message ?? 'ok');
    }
    if (fault === 'lose-send-answers' && sends) return void hung.add(res);
    if (fault === 'hide-receipts-until-send') {
      if (sends) receiptsHidden = false;
      else if (receiptsHidden) {
        for (const a of list) {
          if (calls.find((c) => c.id === a.id)?.method === 'eth_getTransactionReceipt') a.result = null;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(answers));
      }
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(text);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(502);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    for (const res of hung) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}

function isSendBelow(call: RpcRequest, minGas: bigint, nonces: number[] | undefined): boolean {
  if (call.method !== 'eth_sendRawTransaction' || typeof call.params?.[0] !== 'string') return false;
  const tx = Transaction.from(call.params[0]);
  return tx.gasLimit < minGas && (!nonces || nonces.includes(tx.nonce));
}

// The refused sends answered here, the rest of the request forwarded, the answers put back together.
async function answerRefusingGas(
  res: ServerResponse,
  parsed: RpcRequest | RpcRequest[],
  calls: RpcRequest[],
  refused: RpcRequest[],
  proxy: RpcFaultProxy,
  upstream: string,
): Promise<void> {
  const refusal = (c: RpcRequest): RpcAnswer & { jsonrpc: string } => {
    const gas = Transaction.from(c.params?.[0] as string).gasLimit;
    const message = `intrinsic gas too low: have ${gas}, want ${proxy.minGas}`;
    proxy.sendAnswers.push(message);
    return { jsonrpc: '2.0', id: c.id, error: { code: -32000, message } as { message: string } };
  };
  const rest = calls.filter((c) => !refused.includes(c));
  const forwarded: RpcAnswer[] =
    rest.length === 0
      ? []
      : (JSON.parse((await forward(upstream, JSON.stringify(rest))).body) as RpcAnswer[]);
  const answers = calls.map((c) => (refused.includes(c) ? refusal(c) : forwarded.find((a) => a.id === c.id)));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
}

function forward(upstream: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const out = request(
      upstream,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        readBody(res)
          .then((text) => resolve({ status: res.statusCode ?? 502, body: text }))
          .catch(reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
