import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { id, JsonRpcProvider, Wallet, zeroPadValue } from 'ethers';

import { freePort } from '@onramp/chain';

import { Banner, EmbeddedProcess, processesUsing } from './support/embedded-process';

const describeEmbedded = process.env.E2E_MODE === 'embedded' ? describe : describe.skip;
const ORDERS_PER_ROUND = 3;
const TRANSFER = id('Transfer(address,address,uint256)');

interface OrderView {
  uuid: string;
  reference: string;
  status: string;
  recepientAddress: string;
  transactionHash?: string;
}

interface Merchant {
  merchantId: string;
  merchantSecret: string;
}

async function json<T>(res: Response, expected: number): Promise<T> {
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${res.url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

// `npm start` (embedded) killed with SIGKILL while orders are being settled, then started again on
// the same data dir: every order completes, each with exactly one USDC transfer on chain. Two kill
// points: right after the bank credits (events in outboxes and on the bus, nothing paid yet), and
// the moment the first payout is mined (transactions on chain, their orders not yet completed).
describeEmbedded('embedded platform survives SIGKILL mid-settlement', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'onramp-crash-'));
  const adminKey = randomBytes(24).toString('base64url');
  let platform: EmbeddedProcess;

  beforeAll(async () => {
    platform = new EmbeddedProcess({
      dataDir,
      adminKey,
      // beside the suite's own platform (E2E_PORT_OFFSET) on ports of its own; +40, not +50: with the
      // usual offsets that would put auth on 5060/5061, ports fetch() refuses (SIP, the fetch spec's bad ports)
      portOffset: Number(process.env.E2E_PORT_OFFSET ?? 1000) + 40,
      chainPort: await freePort(),
    });
  });

  afterAll(async () => {
    await platform.signal('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('completes every order with exactly one on-chain transfer after kill -9 and restart', async () => {
    let banner = await platform.start();
    const usdc = banner.usdcAddress;
    const merchant = await createMerchant(banner, adminKey);
    const orders: OrderView[] = [];
    const figures: string[] = [];

    for (const killAt of ['after the bank credits', 'at the first payout block'] as const) {
      const api = await Api.open(banner, merchant);
      const round = await api.createOrders(ORDERS_PER_ROUND);
      orders.push(...round);
      const chain = new JsonRpcProvider(banner.rpcUrl, undefined, { staticNetwork: true });
      await api.payAll(round);
      if (killAt === 'at the first payout block') {
        const deadline = Date.now() + 20_000;
        while ((await countTransfers(chain, usdc, round)) === 0 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 5));
        }
      }
      const blockAtKill = await chain.getBlockNumber();
      expect(await platform.signal('SIGKILL')).toBeNull();
      const paidAtKill = await countTransfers(chain, usdc, round).catch(() => NaN); // anvil may be stopping
      chain.destroy();

      const t0 = Date.now();
      banner = await platform.start();
      figures.push(
        `kill ${killAt}: ${paidAtKill}/${round.length} paid at SIGKILL, up again in ${Date.now() - t0} ms`,
      );
      // the chain came back, token and all (a fresh chain would redeploy at the same address, but
      // would start again at block 2)
      expect(banner.usdcAddress).toBe(usdc);
      const restored = new JsonRpcProvider(banner.rpcUrl, undefined, { staticNetwork: true });
      expect(await restored.getBlockNumber()).toBeGreaterThanOrEqual(blockAtKill);
      restored.destroy();
    }

    const api = await Api.open(banner, merchant); // the same merchant: its data survived too
    const final = await api.waitUntilSettled(orders);
    expect(final.map((o) => o.status)).toEqual(orders.map(() => 'COMPLETED'));
    const chain = new JsonRpcProvider(banner.rpcUrl, undefined, { staticNetwork: true });
    try {
      for (const order of final) {
        const logs = await transfersTo(chain, usdc, order.recepientAddress);
        expect(logs.map((l) => l.transactionHash)).toEqual([order.transactionHash]);
      }
    } finally {
      chain.destroy();
    }
    process.stderr.write(`[crash] ${figures.join('; ')}; all ${final.length} COMPLETED, one Transfer each\n`);

    // and a clean stop leaves nothing behind
    expect(await platform.signal('SIGTERM')).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  });
});

function transfersTo(chain: JsonRpcProvider, usdc: string, recipient: string) {
  return chain.getLogs({
    address: usdc,
    fromBlock: 0,
    topics: [TRANSFER, null, zeroPadValue(recipient, 32)],
  });
}

// One query for all of them: a topic position given as a list matches any of its values.
async function countTransfers(chain: JsonRpcProvider, usdc: string, orders: OrderView[]): Promise<number> {
  const recipients = orders.map((o) => zeroPadValue(o.recepientAddress, 32));
  return (await chain.getLogs({ address: usdc, fromBlock: 0, topics: [TRANSFER, null, recipients] })).length;
}

async function createMerchant(banner: Banner, adminKey: string): Promise<Merchant> {
  return json<Merchant>(
    await fetch(`${banner.adminUrl}/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Crash Test GmbH' }),
    }),
    201,
  );
}

// Plain HTTP through the gateway of the process under test (not the suite's platform).
class Api {
  private constructor(
    private readonly banner: Banner,
    private readonly auth: Record<string, string>,
  ) {}

  static async open(banner: Banner, merchant: Merchant): Promise<Api> {
    const basic = Buffer.from(`${merchant.merchantId}:${merchant.merchantSecret}`).toString('base64');
    const token = await json<{ access_token: string }>(
      await fetch(`${banner.baseUrl}/auth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}` },
      }),
      200,
    );
    return new Api(banner, {
      authorization: `Bearer ${token.access_token}`,
      'content-type': 'application/json',
    });
  }

  private post<T>(url: string, body: unknown, expected: number): Promise<T> {
    return fetch(url, { method: 'POST', headers: this.auth, body: JSON.stringify(body) }).then((res) =>
      json<T>(res, expected),
    );
  }

  async createOrders(count: number): Promise<OrderView[]> {
    const user = await this.post<{ uuid: string }>(
      `${this.banner.kycUrl}/kyc/add`,
      {
        firstName: 'Grace',
        lastName: 'Hopper',
        dateOfBirth: '1986-12-09',
        nationality: 'US',
        email: 'grace@example.com',
        address: { line1: '1 Navy Way', city: 'Arlington', postalCode: '22202', country: 'US' },
      },
      201,
    );
    const orders: OrderView[] = [];
    for (let i = 0; i < count; i++) {
      const recepientAddress = Wallet.createRandom().address; // fresh: its Transfer logs are ours alone
      orders.push(
        await this.post<OrderView>(
          `${this.banner.baseUrl}/orders/create`,
          { amount: 25, currency: 'EUR', recepientAddress, kycUserUuid: user.uuid },
          201,
        ),
      );
    }
    return orders;
  }

  async payAll(orders: OrderView[]): Promise<void> {
    await Promise.all(
      orders.map((o) =>
        this.post(
          `${this.banner.baseUrl}/sandbox/sepa-credits`,
          { reference: o.reference, amount: 25, currency: 'EUR', payerName: 'Grace Hopper' },
          202,
        ),
      ),
    );
  }

  async waitUntilSettled(orders: OrderView[], timeoutMs = 60_000): Promise<OrderView[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = await Promise.all(
        orders.map(async (o) =>
          json<OrderView>(
            await fetch(`${this.banner.baseUrl}/orders/${o.uuid}/payment-details`, { headers: this.auth }),
            200,
          ),
        ),
      );
      if (now.every((o) => o.status !== 'CREATED') || Date.now() > deadline) return now;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
