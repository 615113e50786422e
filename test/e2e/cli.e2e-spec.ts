import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';

import { Wallet } from 'ethers';
import { Client } from 'pg';

import { waitFor } from '@onramp/testing';

import { kycUserBody, MerchantCredentials } from './support/api-client';
import { e2e } from './support/env';
import { parseJson, runOnramp } from './support/run-cli';
import { TestMerchant } from './support/test-merchant';
import { WebhookReceiver } from './support/webhook-receiver';

interface Page<T> {
  items: T[];
  total: number;
}
interface DeliveryRow {
  id: string;
  merchantId: string;
  orderUuid: string;
  status: string;
}
interface OrderRow {
  uuid: string;
  merchantId: string;
  status: string;
  statusHistory?: { from: string | null; to: string }[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface AuditRow {
  service: string;
  operator: string;
  action: string;
  target: string;
  before: { merchantId?: string } | null;
  requestId: string | null;
}

describe('operator CLI (bin/onramp.js in a child process, against the platform)', () => {
  const receiver = new WebhookReceiver();
  let creds: MerchantCredentials & { name: string };
  let hookUrl: string;

  beforeAll(async () => {
    hookUrl = await receiver.start();
  });
  afterAll(() => receiver.stop());

  it('creates a merchant and lists it, as a table and as JSON', async () => {
    const name = `CLI Shop ${randomUUID().slice(0, 8)}`;
    const created = await runOnramp(['merchants', 'create', '--name', name, '--json']);
    creds = parseJson(created);
    expect(creds).toMatchObject({ merchantId: expect.stringMatching(UUID), name });
    expect(creds.merchantSecret.length).toBeGreaterThanOrEqual(32);

    const table = await runOnramp(['merchants', 'list']);
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^MERCHANT ID\s+NAME\s+CREATED$/);
    expect(lines.find((l) => l.startsWith(creds.merchantId))).toContain(name);
    expect(table.stdout).not.toContain(creds.merchantSecret);

    const page = parseJson<Page<{ merchantId: string }>>(await runOnramp(['merchants', 'list', '--json']));
    expect(page.items.map((m) => m.merchantId)).toContain(creds.merchantId);
    expect(page.total).toBeGreaterThanOrEqual(1);
  });

  it('credits an order reference in the sandbox bank; the order and its webhook delivery show up', async () => {
    const merchant = new TestMerchant(creds);
    await merchant.setWebhook(hookUrl);
    const kyc = await merchant.createKycUser(kycUserBody());
    const order = await merchant.createOrder({
      amount: 10.5,
      currency: 'EUR',
      recepientAddress: Wallet.createRandom().address,
      kycUserUuid: kyc.uuid,
    });

    // The id as a flag, the secret from the environment (flags show up in ps).
    const credit = await runOnramp(
      [
        'sandbox',
        'credit',
        '--reference',
        order.reference,
        '--amount',
        '10.50',
        '--payer-name',
        'Ada Lovelace',
      ],
      { ONRAMP_MERCHANT_ID: creds.merchantId, ONRAMP_MERCHANT_SECRET: creds.merchantSecret },
    );
    expect(credit.code).toBe(0);
    expect(credit.stdout).toMatch(/^bankTransactionId\s+[0-9a-f-]{36}$/m);
    expect(credit.stdout + credit.stderr).not.toContain(creds.merchantSecret);
    await receiver.waitFor((w) => w.body.orderUuid === order.uuid);

    const delivery = await waitFor(
      async () => {
        const page = parseJson<Page<DeliveryRow>>(
          await runOnramp(['deliveries', 'list', '--merchant', creds.merchantId, '--json']),
        );
        return page.items.find((d) => d.orderUuid === order.uuid && d.status === 'DELIVERED');
      },
      { timeoutMs: 30_000, description: 'the delivery to be listed as DELIVERED' },
    );
    expect(delivery.merchantId).toBe(creds.merchantId);
    const deliveries = await runOnramp([
      'deliveries',
      'list',
      '--merchant',
      creds.merchantId,
      '--status',
      'DELIVERED',
    ]);
    expect(deliveries.stdout.split('\n')[0]).toMatch(/^DELIVERY ID\s+MERCHANT\s+EVENT/);
    expect(deliveries.stdout).toContain(delivery.id);

    const details = parseJson<OrderRow>(await runOnramp(['orders', 'get', order.uuid, '--json']));
    expect(details).toMatchObject({ uuid: order.uuid, merchantId: creds.merchantId, status: 'COMPLETED' });
    expect(details.statusHistory?.map((h) => h.to)).toEqual(['CREATED', 'COMPLETED']);
    const human = await runOnramp(['orders', 'get', order.uuid]);
    expect(human.stdout).toMatch(/^status\s+COMPLETED$/m);
    expect(human.stdout).toMatch(/^amount\s+10\.50 EUR$/m);
    expect(human.stdout).toContain('Status history:');
    const completed = parseJson<Page<OrderRow>>(
      await runOnramp(['orders', 'list', '--merchant', creds.merchantId, '--status', 'COMPLETED', '--json']),
    );
    expect(completed.items.map((o) => o.uuid)).toEqual([order.uuid]);

    const again = await runOnramp(['deliveries', 'redeliver', delivery.id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Redelivery queued.');
    await waitFor(() => receiver.received.filter((w) => w.body.orderUuid === order.uuid).length === 2, {
      timeoutMs: 30_000,
      description: 'the redelivered webhook',
    });
  });

  it("erases an end user's personal data: its orders keep their records, the API answers 410, never a 500", async () => {
    const merchant = new TestMerchant(creds);
    const kyc = await merchant.createKycUser(kycUserBody());
    const order = await merchant.createOrder({
      amount: 12,
      currency: 'EUR',
      recepientAddress: Wallet.createRandom().address,
      kycUserUuid: kyc.uuid,
    });
    const erased = await runOnramp(['kyc', 'erase', kyc.uuid]);
    expect(erased.code).toBe(0);
    expect(erased.stdout).toContain(`${kyc.uuid}: personal data erased (by admin`);

    expect((await merchant.raw('kyc', `/kyc/${kyc.uuid}`)).status).toBe(410);
    expect((await merchant.raw('base', `/orders/${order.uuid}/payment-details`)).status).toBe(200);
    const shown = parseJson<OrderRow>(await runOnramp(['orders', 'get', order.uuid, '--json']));
    expect(shown).toMatchObject({ uuid: order.uuid, merchantId: creds.merchantId });
    // the user is REJECTED: once orders has the event, a new order for it is refused (a 4xx)
    await waitFor(
      async () => {
        const again = await merchant.raw('base', '/orders/create', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            amount: 12,
            currency: 'EUR',
            recepientAddress: Wallet.createRandom().address,
            kycUserUuid: kyc.uuid,
          }),
        });
        expect(again.status).toBeLessThan(500);
        return again.status >= 400;
      },
      { timeoutMs: 15_000, intervalMs: 250, description: 'orders refusing the erased user' },
    );
    // payment-ingest's copy of the holder's name (payer name policy) is gone once kyc.user.erased
    // arrives: a tombstone, no name
    const db = new Client({ connectionString: e2e.databaseUrl() });
    await db.connect();
    try {
      await waitFor(
        async () => {
          const { rows } = await db.query<{ holder_name: string | null; erased_at: Date | null }>(
            `SELECT holder_name, erased_at FROM payments.kyc_holders WHERE user_uuid = $1`,
            [kyc.uuid],
          );
          return rows.length === 1 && rows[0].holder_name === null && rows[0].erased_at !== null;
        },
        { timeoutMs: 15_000, intervalMs: 250, description: "payment-ingest erasing the holder's name" },
      );
    } finally {
      await db.end();
    }
  });

  it('rotates a merchant secret and prints only the new one', async () => {
    const rotated = await runOnramp(['merchants', 'rotate-secret', creds.merchantId]);
    expect(rotated.code).toBe(0);
    const secret = /^merchantSecret\s+(\S+)$/m.exec(rotated.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(secret).not.toBe(creds.merchantSecret);
    expect(rotated.stdout + rotated.stderr).not.toContain(creds.merchantSecret);
  });

  it('shows in the audit log who created the merchant, redelivered its webhook and rotated its secret', async () => {
    const { items } = parseJson<{ items: AuditRow[] }>(await runOnramp(['audit', 'list', '--json']));
    const mine = items.filter(
      (r) => r.target === creds.merchantId || r.before?.merchantId === creds.merchantId,
    );
    expect(mine.map((r) => [r.service, r.action, r.operator])).toEqual([
      ['auth', 'merchant.rotate-secret', 'admin'],
      ['webhook-dispatch', 'webhook-delivery.redeliver', 'admin'],
      ['auth', 'merchant.create', 'admin'],
    ]);
    expect(mine.every((r) => r.requestId)).toBe(true);
    expect(JSON.stringify(items)).not.toContain(creds.merchantSecret);
    const table = await runOnramp(['audit', 'list', '--limit', '2']);
    expect(table.stdout.split('\n')[0]).toMatch(/^AT\s+OPERATOR\s+SERVICE\s+ACTION/);
  });

  it('creates a named operator whose key works with its scopes only, lists it, and revokes it within seconds', async () => {
    const id = `op-${randomUUID().slice(0, 8)}`;
    const created = parseJson<{ id: string; key: string; scopes: string[] }>(
      await runOnramp(['operators', 'new', id, 'read+deliveries', '--json']),
    );
    expect(created).toMatchObject({ id, scopes: ['read', 'deliveries'] });
    const asOperator = { ADMIN_API_KEY: created.key };
    expect((await runOnramp(['merchants', 'list'], asOperator)).code).toBe(0);
    const refused = await runOnramp(['merchants', 'create', '--name', 'Not Allowed'], asOperator);
    expect(refused.stderr).toContain(`operator ${id} lacks the "merchants" scope`);
    // chain-settlement's admin routes, through the gateway: reads with `read`, a release needs `money`
    const held = parseJson<{ items: unknown[] }>(await runOnramp(['settlements', 'held', '--json'], asOperator));
    expect(held.items).toEqual([]);
    const noMoney = await runOnramp(['settlements', 'release', randomUUID()], asOperator);
    expect(noMoney.stderr).toContain(`operator ${id} lacks the "money" scope`);
    const unknown = await runOnramp(['settlements', 'release', randomUUID()]);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('no settlement for this order') });

    const listed = await runOnramp(['operators', 'list']);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+SCOPES\s+CREATED/);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+read\\+deliveries\\s`, 'm'));
    expect(listed.stdout).not.toContain(created.key);

    expect((await runOnramp(['operators', 'revoke', id])).stdout).toContain(`operator ${id} revoked at`);
    // the gateway refreshes auth's operator list every 5 s
    await waitFor(async () => (await runOnramp(['merchants', 'list'], asOperator)).code === 1, {
      timeoutMs: 15_000,
      intervalMs: 500,
      description: 'the revoked key refused',
    });
    const { items } = parseJson<{ items: AuditRow[] }>(await runOnramp(['audit', 'list', '--json']));
    expect(items.filter((r) => r.target === id).map((r) => [r.service, r.action, r.operator])).toEqual([
      ['auth', 'operator.revoke', 'admin'],
      ['auth', 'operator.create', 'admin'],
    ]);
  });

  it('exits 1 with the problem detail when the API refuses', async () => {
    const missing = await runOnramp(['orders', 'get', randomUUID()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('onramp: 404 Not Found: order not found\n');

    const wrongKey = await runOnramp(['merchants', 'list'], { ADMIN_API_KEY: 'not-the-key' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('onramp: 401 Unauthorized');
    expect(wrongKey.stderr).toContain('hint: the admin API key was refused');
    expect(wrongKey.stderr).not.toContain('not-the-key');

    const badSecret = await runOnramp(
      [
        'sandbox',
        'credit',
        '--reference',
        'RF18539007547034',
        '--amount',
        '1',
        '--merchant-id',
        creds.merchantId,
      ],
      { ONRAMP_MERCHANT_SECRET: 'wrong-secret' },
    );
    expect(badSecret.code).toBe(1);
    expect(badSecret.stderr).toContain('hint: the merchant credentials were refused');
  });

  it('exits 2 on a bad command line and 3 when the admin API cannot be reached', async () => {
    const bad = await runOnramp(['merchants', 'fly']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('onramp: unknown command "merchants fly"');
    expect(bad.stdout).toBe('');
    expect((await runOnramp(['orders', 'list', '--status', 'PAID'])).code).toBe(2);
    expect((await runOnramp(['merchants', 'list'], { ADMIN_API_KEY: undefined })).code).toBe(2);

    const port = await unusedPort();
    const down = await runOnramp(['merchants', 'list', '--admin-url', `http://127.0.0.1:${port}`]);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain(
      `cannot reach the admin API at http://127.0.0.1:${port} (connection refused)`,
    );
  });
});
