import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

import { JsonRpcProvider } from 'ethers';

import { NodeDecodingJsonRpcProvider } from './json-rpc-provider';

type Answer = (body: { id: number; method: string }, res: ServerResponse) => void;

// A JSON-RPC endpoint whose answer each test sets; it records the requests' content types.
describe('NodeDecodingJsonRpcProvider', () => {
  let server: Server;
  let url: string;
  let answer: Answer;
  const contentTypes: string[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        contentTypes.push(String(req.headers['content-type']));
        answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string }, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // ethers' provider and ours, each given the same answers, must end the same way.
  async function both(method: string): Promise<unknown[]> {
    const outcomes: unknown[] = [];
    for (const Provider of [JsonRpcProvider, NodeDecodingJsonRpcProvider]) {
      const provider = new Provider(url, 31337, { staticNetwork: true, batchMaxCount: 1 });
      provider._getConnection().setThrottleParams({ maxAttempts: 1 });
      try {
        outcomes.push({ result: await provider.send(method, []) });
      } catch (err) {
        const e = err as { code?: string; shortMessage?: string; info?: { error?: unknown } };
        outcomes.push({ code: e.code, shortMessage: e.shortMessage, nodeError: e.info?.error });
      } finally {
        provider.destroy();
      }
    }
    return outcomes;
  }

  const json = (status: number, body: unknown) => (_req: unknown, res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it('reads a result, multi-byte characters included, as ethers does, and sends JSON', async () => {
    answer = (req, res) => json(200, { jsonrpc: '2.0', id: req.id, result: 'café ✓ 𝄞' })(req, res);
    const [theirs, ours] = await both('web3_clientVersion');
    expect(ours).toEqual({ result: 'café ✓ 𝄞' });
    expect(ours).toEqual(theirs);
    expect(contentTypes.at(-1)).toBe('application/json');
  });

  it('gives a node error as the same ethers error', async () => {
    answer = (req, res) =>
      json(200, { jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'nonce too low: é' } })(
        req,
        res,
      );
    const [theirs, ours] = await both('eth_sendRawTransaction');
    expect(ours).toEqual(theirs);
    expect(ours).toMatchObject({ nodeError: { message: 'nonce too low: é' } });
  });

  it('gives an HTTP failure as the same SERVER_ERROR', async () => {
    answer = (_req, res) => res.writeHead(500).end('down');
    const [theirs, ours] = await both('eth_chainId');
    expect(ours).toMatchObject({ code: 'SERVER_ERROR' });
    expect(ours).toEqual(theirs);
  });

  it('refuses a body that is not UTF-8, or not JSON, as ethers does', async () => {
    for (const body of [Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), Buffer.from('{"jsonrpc": "2.0", ')]) {
      answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      const [theirs, ours] = await both('eth_chainId');
      expect(ours).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
      expect(ours).toEqual(theirs);
    }
  });
});
