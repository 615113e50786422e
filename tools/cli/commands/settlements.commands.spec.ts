import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { runCli } from '../cli';

// A stand-in for the gateway's admin listener: records what the CLI asks, answers as the API does.
describe('onramp settlements', () => {
  const held = {
    orderUuid: '7d3f1b9e-2c4a-4e8b-9f1d-3a5b7c9e1f20',
    merchantId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    recipientAddress: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    tokenAmount: '32.076000',
    reason: 'over payout cap: 32.076 USDC is above SETTLEMENT_MAX_PER_TRANSFER_USDC 20',
    heldSince: '2026-11-23T17:00:00.000Z',
  };
  const seen: Array<{ method?: string; url?: string; auth?: string }> = [];
  let server: Server;
  let adminUrl: string;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization });
      const json = (status: number, body: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type, 'x-total-count': '1' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url?.startsWith('/admin/settlements?')) return json(200, [held]);
      if (req.url === `/admin/settlements/${held.orderUuid}/release`)
        return json(200, { orderUuid: held.orderUuid, state: 'PENDING' });
      return json(
        409,
        { title: 'Conflict', status: 409, detail: 'the settlement is not HELD (it is CONFIRMED)' },
        'application/problem+json',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    adminUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const run = async (argv: string[]) => {
    const out = { stdout: jest.fn(), stderr: jest.fn() };
    const code = await runCli(argv, { ADMIN_API_KEY: 'k', ONRAMP_ADMIN_URL: adminUrl }, out);
    const text = (fn: jest.Mock) => fn.mock.calls.map((c) => String(c[0])).join('');
    return { code, stdout: text(out.stdout), stderr: text(out.stderr) };
  };

  it('lists the HELD settlements from GET /admin/settlements?state=HELD', async () => {
    seen.length = 0;
    const listed = await run(['settlements', 'held', '--limit', '10']);
    expect(listed.code).toBe(0);
    expect(seen).toEqual([
      { method: 'GET', url: '/admin/settlements?state=HELD&limit=10', auth: expect.stringContaining('k') },
    ]);
    expect(listed.stdout).toContain(`${held.orderUuid}  32.076000 USDC  to ${held.recipientAddress}`);
    expect(listed.stdout).toContain('over payout cap');
    const json = await run(['settlements', 'held', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ items: [held], total: 1 });
  });

  it('releases one with POST /admin/settlements/{orderUuid}/release, and says why when it cannot', async () => {
    seen.length = 0;
    const released = await run(['settlements', 'release', held.orderUuid]);
    expect(released).toMatchObject({ code: 0, stdout: expect.stringContaining('released (PENDING)') });
    expect(seen).toEqual([
      expect.objectContaining({ method: 'POST', url: `/admin/settlements/${held.orderUuid}/release` }),
    ]);
    const refused = await run(['settlements', 'release', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d']);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('not HELD (it is CONFIRMED)') });
    expect((await run(['settlements', 'release', 'nope'])).code).toBe(2);
  });
});
