import { demoKycUser } from '@onramp/testing';
import { Wallet } from 'ethers';

import { chaosEnv } from './chaos-env';

export interface PlacedOrder {
  uuid: string;
  reference: string;
  amount: number;
  recipient: string;
}

interface Response<T> {
  status: number;
  body: T;
  text: string;
}

async function call<T>(url: string, init: RequestInit): Promise<Response<T>> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, text };
}

// A merchant driving the platform over HTTP through the gateway, as a real one would: admin API
// for its credentials, then token, webhook endpoint, one KYC user, orders, and sandbox SEPA credits.
export class ChaosMerchant {
  private token?: string;
  private kycUserUuid = '';

  private constructor(
    readonly merchantId: string,
    private readonly secret: string,
  ) {}

  static async create(name: string, webhookUrl: string): Promise<ChaosMerchant> {
    const created = await call<{ merchantId: string; merchantSecret: string }>(
      `${chaosEnv.adminUrl()}/admin/merchants`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${chaosEnv.adminKey()}` },
        body: JSON.stringify({ name }),
      },
    );
    if (created.status !== 201) throw new Error(`create merchant: ${created.status} ${created.text}`);
    const merchant = new ChaosMerchant(created.body.merchantId, created.body.merchantSecret);
    await merchant.expect(200, 'base', '/merchant/webhook', { method: 'PUT', body: { url: webhookUrl } });
    const user = await merchant.expect<{ uuid: string }>(201, 'kyc', '/kyc/add', {
      method: 'POST',
      body: demoKycUser(),
    });
    merchant.kycUserUuid = user.uuid;
    return merchant;
  }

  async createOrder(amount: number, recipient = Wallet.createRandom().address): Promise<PlacedOrder> {
    const order = await this.expect<{ uuid: string; reference: string }>(201, 'base', '/orders/create', {
      method: 'POST',
      body: { amount, currency: 'EUR', recepientAddress: recipient, kycUserUuid: this.kycUserUuid },
    });
    return { uuid: order.uuid, reference: order.reference, amount, recipient };
  }

  async createOrders(count: number, firstAmount = 10): Promise<PlacedOrder[]> {
    const orders: PlacedOrder[] = [];
    for (let i = 0; i < count; i++) orders.push(await this.createOrder(firstAmount + i));
    return orders;
  }

  // The end user's SEPA transfer, booked by the sandbox bank.
  async pay(order: PlacedOrder): Promise<void> {
    await this.expect(202, 'base', '/sandbox/sepa-credits', {
      method: 'POST',
      body: { reference: order.reference, amount: order.amount, currency: 'EUR', payerName: 'Ada Lovelace' },
    });
  }

  async webhookEndpoint(): Promise<{ url: string; disabled: boolean; disabledReason?: string }> {
    return this.expect(200, 'base', '/merchant/webhook', {});
  }

  async expect<T = unknown>(
    status: number,
    host: 'base' | 'kyc',
    path: string,
    init: { method?: string; body?: unknown },
  ): Promise<T> {
    const res = await this.request<T>(host, path, init);
    if (res.status !== status) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  private async request<T>(
    host: 'base' | 'kyc',
    path: string,
    init: { method?: string; body?: unknown },
  ): Promise<Response<T>> {
    const send = async () =>
      call<T>(`${host === 'base' ? chaosEnv.baseUrl() : chaosEnv.kycUrl()}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${await this.accessToken()}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    const first = await send();
    if (first.status !== 401) return first;
    this.token = undefined; // docs/api.md, Authentication 3: fetch a new token and retry
    return send();
  }

  private async accessToken(): Promise<string> {
    if (!this.token) {
      const basic = Buffer.from(`${this.merchantId}:${this.secret}`).toString('base64');
      const res = await call<{ access_token: string }>(`${chaosEnv.baseUrl()}/auth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}` },
      });
      if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
      this.token = res.body.access_token;
    }
    return this.token;
  }
}
