import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

import { classifyChainError } from '@onramp/settlement-domain';

import { OrderedRpcConnection, RpcAnswerError, RpcHttpError } from './ordered-rpc';

// What the connection makes of a node's answers, against a small HTTP server standing in for the node
// (the ordering on a real node is in ordered-rpc.int-spec.ts).
describe('OrderedRpcConnection', () => {
  let server: Server;
  let url: string;
  let answer: (body: { id: number; method: string }, req: IncomingMessage, res: ServerResponse) => void;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => answer(JSON.parse(body) as { id: number; method: string }, req, res));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const json = (res: ServerResponse, value: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };

  it('answers each call with its result, in order, over one connection', async () => {
    const seen: string[] = [];
    answer = (body, _req, res) => {
      seen.push(body.method);
      json(res, { jsonrpc: '2.0', id: body.id, result: body.method });
    };
    const rpc = new OrderedRpcConnection(url, 1_000);
    const before = connections;
    const methods = Array.from({ length: 20 }, (_, i) => `m${i}`);
    try {
      expect(await Promise.all(methods.map((m) => rpc.call(m, [])))).toEqual(methods);
    } finally {
      await rpc.close();
    }
    expect(seen).toEqual(methods);
    expect(connections - before).toBe(1);
  });

  it('turns a JSON-RPC error into an RpcAnswerError the broadcast classification reads', async () => {
    answer = (body, _req, res) =>
      json(res, { jsonrpc: '2.0', id: body.id, error: { code: -32000, message: 'nonce too low' } });
    const rpc = new OrderedRpcConnection(url, 1_000);
    try {
      const err = await rpc.call('eth_sendRawTransaction', ['0x01']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RpcAnswerError);
      expect(classifyChainError(err)).toBe('clue');
    } finally {
      await rpc.close();
    }
  });

  it('treats an HTTP error from a proxy in front of the node as transient', async () => {
    answer = (_body, _req, res) => {
      res.writeHead(503);
      res.end('service unavailable');
    };
    const rpc = new OrderedRpcConnection(url, 1_000);
    try {
      const err = await rpc.call('eth_sendRawTransaction', ['0x01']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RpcHttpError);
      expect(classifyChainError(err)).toBe('transient');
    } finally {
      await rpc.close();
    }
  });

  it('sends the credentials of the URL as basic auth, never in the path', async () => {
    let seen: { authorization?: string; url?: string } = {};
    answer = (body, req, res) => {
      seen = { authorization: req.headers.authorization, url: req.url };
      json(res, { jsonrpc: '2.0', id: body.id, result: '0x1' });
    };
    const withCredentials = url.replace('http://', 'http://user:p%40ss@') + '/rpc?key=k';
    const rpc = new OrderedRpcConnection(withCredentials, 1_000);
    try {
      await rpc.call('eth_chainId', []);
    } finally {
      await rpc.close();
    }
    expect(seen.url).toBe('/rpc?key=k');
    expect(seen.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
  });
});
