import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { Client } from 'pg';

import { freePort } from '@onramp/chain';
import { reconcile } from '@onramp/ops';
import { findRepoRoot } from '@onramp/platform-infra';
import { verifyStandardWebhook, verifyWebhook } from '@onramp/sdk';
import { buildCamt054, generateRfReference } from '@onramp/sepa';

import { call, E2E_PAYER_IBAN, kycUserBody } from './support/api-client';
import { Banner, EmbeddedProcess } from './support/embedded-process';
import { selfSignedCertificate } from './support/self-signed-certificate';
import { WebhookReceiver } from './support/webhook-receiver';

const COLLECTION = { iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', name: 'Onramp Collections B.V.' };
const USDC_ABI = ['function balanceOf(address) view returns (uint256)'];

interface OrderBody {
  uuid: string;
  reference: string;
  status: string;
  payedAmount?: number;
  sentTokenAmount?: number;
  beneficiaryName?: string;
}

// The "done when": `npm start` in production mode, an operator-approved KYC user, and one
// camt.054 whose entries pay four orders plus an unknown reference, under the default policies.
describe('production mode: a camt.054 upload pays orders through the admin host', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'onramp-production-'));
  const adminKey = randomBytes(24).toString('base64url');
  let platform: EmbeddedProcess;
  let banner: Banner;
  let token: string;
  let operatorKey = adminKey; // the bootstrap key until it has created the operator below
  let webhookSecret: string;
  // Production sends webhooks over https only, and never to loopback: the receiver is https with a
  // certificate the platform trusts (NODE_EXTRA_CA_CERTS), and its address is the one the operator
  // allows (WEBHOOK_ALLOWED_ADDRESSES). Merchants' URLs are judged by the unchanged policy.
  const tls = selfSignedCertificate(dataDir);
  const receiver = new WebhookReceiver();

  const admin = (path: string, init: RequestInit = {}) =>
    call<Record<string, unknown>>(`${banner.adminUrl}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${operatorKey}`,
        'content-type': 'application/json',
        ...(init.headers ?? {}),
      },
    });
  const merchantCall = <T>(url: string, init: RequestInit = {}) =>
    call<T>(url, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(init.headers ?? {}),
      },
    });
  const until = async <T>(
    what: string,
    probe: () => Promise<T | undefined>,
    timeoutMs = 60_000,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    platform = new EmbeddedProcess({
      dataDir,
      adminKey,
      portOffset: Number(process.env.E2E_PORT_OFFSET ?? 1000) + 70,
      chainPort: await freePort(),
      env: {
        ONRAMP_MODE: 'production',
        COLLECTION_IBAN: COLLECTION.iban,
        COLLECTION_BIC: COLLECTION.bic,
        COLLECTION_ACCOUNT_NAME: COLLECTION.name,
        WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1',
        SETTLEMENT_MAX_PER_TRANSFER_USDC: '500', // the reversal case below keeps its payout HELD
        NODE_EXTRA_CA_CERTS: tls.certFile,
      },
    });
    banner = await platform.start();
    // In production the bootstrap key only creates the first operator, then stops working.
    const bootstrapScope = await admin('/admin/merchants', { method: 'POST', body: '{"name":"x"}' });
    expect(bootstrapScope.status).toBe(403);
    const first = await admin('/admin/operators', {
      method: 'POST',
      body: JSON.stringify({ id: 'ops-lead', scopes: ['read', 'merchants', 'kyc', 'money', 'operators'] }),
    });
    expect(first.status).toBe(201);
    operatorKey = String(first.body.key);
    // within the gateway's 5 s refresh of auth's operator list
    await until(
      'the bootstrap key refused',
      async () =>
        (
          await call(`${banner.adminUrl}/admin/operators`, {
            headers: { authorization: `Bearer ${adminKey}` },
          })
        ).status === 401 || undefined,
      15_000,
    );
    const merchant = await admin('/admin/merchants', {
      method: 'POST',
      body: JSON.stringify({ name: 'Prod GmbH' }),
    });
    expect(merchant.status).toBe(201);
    const { merchantId, merchantSecret } = merchant.body as { merchantId: string; merchantSecret: string };
    const basic = Buffer.from(`${merchantId}:${merchantSecret}`).toString('base64');
    const issued = await call<{ access_token: string }>(`${banner.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(issued.status).toBe(200);
    token = issued.body.access_token;

    const hookUrl = await receiver.start(tls);
    // what a merchant may not register: plain http, or a loopback address the operator did not allow
    for (const refused of [hookUrl.replace('https:', 'http:'), hookUrl.replace('127.0.0.1', '127.0.0.2')]) {
      const res = await merchantCall(`${banner.baseUrl}/merchant/webhook`, {
        method: 'PUT',
        body: JSON.stringify({ url: refused }),
      });
      expect(res.status).toBe(400);
    }
    const hook = await merchantCall<{ secret: string }>(`${banner.baseUrl}/merchant/webhook`, {
      method: 'PUT',
      body: JSON.stringify({ url: hookUrl }),
    });
    expect(hook.status).toBe(200);
    webhookSecret = hook.body.secret;
  }, 180_000);

  afterAll(async () => {
    await receiver.stop();
    await platform?.signal('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('completes the exact and the tolerated payment, holds the rest, replays as nothing and returns each held euro', async () => {
    // production has no sandbox bank
    expect(
      (await merchantCall(`${banner.baseUrl}/sandbox/sepa-credits`, { method: 'POST', body: '{}' })).status,
    ).toBe(404);

    // KYC waits for an operator in production
    const kyc = await merchantCall<{ uuid: string; status: string }>(`${banner.kycUrl}/kyc/add`, {
      method: 'POST',
      body: JSON.stringify(kycUserBody({ firstName: 'Ada', lastName: 'Lovelace' })),
    });
    expect(kyc.status).toBe(201);
    expect(kyc.body.status).toBe('PENDING_REVIEW');
    const decided = await admin(`/admin/kyc-users/${kyc.body.uuid}/decision`, {
      method: 'POST',
      body: JSON.stringify({ status: 'APPROVED', reason: 'passport checked by video call' }),
    });
    expect(decided.status).toBe(200);

    const recipients = Array.from({ length: 4 }, () => Wallet.createRandom().address);
    const create = (amount: number, recepientAddress: string) =>
      until('the approval to reach orders', async () => {
        const res = await merchantCall<OrderBody>(`${banner.baseUrl}/orders/create`, {
          method: 'POST',
          body: JSON.stringify({ amount, currency: 'EUR', recepientAddress, kycUserUuid: kyc.body.uuid }),
        });
        if (res.status === 422) return undefined;
        expect(res.status).toBe(201);
        return res.body;
      });
    const exact = await create(100, recipients[0]!);
    const overpaid = await create(200, recipients[1]!);
    const thirdParty = await create(50, recipients[2]!);
    const farAbove = await create(100, recipients[3]!);
    expect(exact.beneficiaryName).toBe(COLLECTION.name);

    const spaced = (ref: string) =>
      ref
        .toLowerCase()
        .replace(/(.{4})/g, '$1 ')
        .trim();
    const xml = buildCamt054({
      messageId: `ABNA-054-${Date.now()}`,
      accountIban: COLLECTION.iban,
      accountHolder: COLLECTION.name,
      createdAt: new Date(),
      credits: [
        {
          accountServicerRef: 'E1',
          amount: '100.00',
          debtorName: 'Ada Lovelace',
          debtorIban: E2E_PAYER_IBAN,
          structuredReference: exact.reference,
        },
        {
          accountServicerRef: 'E2',
          amount: '205.00',
          debtorName: 'LOVELACE ADA',
          debtorIban: E2E_PAYER_IBAN,
          unstructured: `order ${spaced(overpaid.reference)} thank you`,
        },
        {
          accountServicerRef: 'E3',
          amount: '50.00',
          debtorName: 'Grace Hopper',
          debtorIban: 'DE02120300000000202051',
          structuredReference: thirdParty.reference,
        },
        {
          accountServicerRef: 'E4',
          amount: '250000.00',
          debtorName: 'Ada Lovelace',
          debtorIban: E2E_PAYER_IBAN,
          structuredReference: farAbove.reference,
        },
        {
          accountServicerRef: 'E5',
          amount: '10.00',
          debtorName: 'Ada Lovelace',
          debtorIban: E2E_PAYER_IBAN,
          structuredReference: generateRfReference(),
        },
      ],
    });
    const upload = () =>
      call<Record<string, unknown>>(`${banner.adminUrl}/admin/bank-statements`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/xml' },
        body: xml,
      });
    // a statement of an account that is not one of ours changes nothing
    const foreign = await call(`${banner.adminUrl}/admin/bank-statements`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/xml' },
      body: xml.replaceAll(COLLECTION.iban, 'DE89370400440532013000'),
    });
    expect(foreign.status).toBe(422);
    expect(foreign.text).toContain('DE89370400440532013000 is not one of the platform');

    const first = await upload();
    expect(first.status).toBe(201);
    // creditsMatched is not asserted: an order.created still on its way when the file arrives pays
    // its credit a moment later (the credit waits as UNKNOWN_REFERENCE until then)
    expect(first.body).toMatchObject({ entries: 5, creditsBooked: 5, duplicates: 0 });

    const completed = (order: OrderBody) =>
      until(
        `order ${order.uuid} to complete`,
        async () => {
          const res = await merchantCall<OrderBody>(`${banner.baseUrl}/orders/${order.uuid}/payment-details`);
          return res.body.status === 'COMPLETED' ? res.body : undefined;
        },
        120_000,
      );
    const [a, b] = await Promise.all([completed(exact), completed(overpaid)]);
    expect(a.payedAmount).toBe(100);
    expect(b.payedAmount).toBe(205);
    const provider = new JsonRpcProvider(banner.rpcUrl);
    const usdc = new Contract(banner.usdcAddress, USDC_ABI, provider);
    expect(Number((await usdc.balanceOf(recipients[0])) as bigint) / 1e6).toBe(a.sentTokenAmount);
    expect(Number((await usdc.balanceOf(recipients[1])) as bigint) / 1e6).toBe(b.sentTokenAmount);
    for (const order of [thirdParty, farAbove]) {
      const res = await merchantCall<OrderBody>(`${banner.baseUrl}/orders/${order.uuid}/payment-details`);
      expect(res.body.status).toBe('CREATED');
      expect((await usdc.balanceOf(recipients[order === thirdParty ? 2 : 3])) as bigint).toBe(0n);
    }
    provider.destroy();

    // the merchant hears of each completed order: a signed order.completed over https
    for (const [order, paid] of [
      [a, 100],
      [b, 205],
    ] as const) {
      const delivered = await receiver.waitFor((w) => w.body.orderUuid === order.uuid, 60_000);
      expect(verifyWebhook(delivered.rawBody, delivered.headers['x-webhook-signature'], webhookSecret)).toBe(
        true,
      );
      expect(verifyStandardWebhook(delivered.rawBody, delivered.headers, webhookSecret)).toBe(true);
      expect(delivered.body).toMatchObject({
        event: 'order.completed',
        status: 'COMPLETED',
        orderUuid: order.uuid,
        userUuid: kyc.body.uuid,
        payedAmount: paid,
        sentTokenAmount: order.sentTokenAmount,
        reference: order.reference,
      });
    }
    expect(
      receiver.received.filter((w) => [thirdParty.uuid, farAbove.uuid].includes(String(w.body.orderUuid))),
    ).toEqual([]);

    const again = await upload();
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ creditsBooked: 0, creditsMatched: 0, duplicates: 5 });

    const reasons = (list: { amount: string; reason: string }[]) =>
      list.map((c) => `${c.amount} ${c.reason}`).sort();
    const expected = [
      '10.00 UNKNOWN_REFERENCE',
      '250000.00 AMOUNT_ABOVE_MAXIMUM',
      '50.00 PAYER_NAME_MISMATCH',
    ];
    const held = await until('the suspense queue to settle', async () => {
      const list = (await admin('/admin/bank-transactions?suspense=true')).body as unknown as {
        id: string;
        amount: string;
        reason: string;
        payerIban: string;
      }[];
      return JSON.stringify(reasons(list)) === JSON.stringify(expected) ? list : undefined;
    });
    expect(reasons(held)).toEqual(expected);
    for (const credit of held) {
      const ret = await admin(`/admin/bank-transactions/${credit.id}/return`, {
        method: 'POST',
        body: JSON.stringify({ reason: `returned: ${credit.reason}` }),
      });
      expect(ret.status).toBe(202);
      const pain = await call(`${banner.adminUrl}/admin/returns/${String(ret.body.returnId)}/pain001`, {
        headers: { authorization: `Bearer ${operatorKey}` },
      });
      expect(pain.status).toBe(200);
      expect(pain.text).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
      expect(pain.text).toContain(`<IBAN>${credit.payerIban}</IBAN>`);
      expect(pain.text).toContain(`<InstdAmt Ccy="EUR">${credit.amount}</InstdAmt>`);
    }
    expect(
      ((await admin('/admin/bank-transactions?suspense=true')).body as unknown as unknown[]).length,
    ).toBe(0);

    // every euro accounted for: received = paid + in suspense + returning + returned + waiting
    const report = await reconcile({
      databaseUrl: banner.databaseUrl,
      rpcUrl: banner.rpcUrl,
      usdcAddress: banner.usdcAddress,
    });
    expect(report.mismatches).toEqual([]);
    expect(report.bank).toMatchObject({ received: '250365.00', paid: '305.00', returning: '250060.00' });

    // and `npm run reconcile`, as an operator runs it, agrees (exit 0) and prints the same sum
    const cli = spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', join(findRepoRoot(), 'tools', 'ops', 'reconcile.ts')],
      {
        cwd: findRepoRoot(),
        env: {
          PATH: process.env.PATH,
          SWC_NODE_PROJECT: join(findRepoRoot(), 'tsconfig.json'),
          DATABASE_URL: banner.databaseUrl,
          RPC_URL: banner.rpcUrl,
          USDC_ADDRESS: banner.usdcAddress,
        },
        encoding: 'utf8',
      },
    );
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toContain(
      '250365.00 EUR received = 305.00 paid + 0.00 in suspense + 250060.00 returning + 0.00 returned + 0.00 reversed + 0.00 waiting',
    );
    expect(cli.status).toBe(0);
  });

  it('fails an order whose credit the bank takes back before its payout is signed: no USDC, an order.failed webhook', async () => {
    const kyc = await merchantCall<{ uuid: string }>(`${banner.kycUrl}/kyc/add`, {
      method: 'POST',
      body: JSON.stringify(kycUserBody({ firstName: 'Ada', lastName: 'Lovelace' })),
    });
    expect(kyc.status).toBe(201);
    expect(
      (
        await admin(`/admin/kyc-users/${kyc.body.uuid}/decision`, {
          method: 'POST',
          body: JSON.stringify({ status: 'APPROVED', reason: 'passport checked' }),
        })
      ).status,
    ).toBe(200);
    const recipient = Wallet.createRandom().address;
    // 1000 EUR pays 1069.20 USDC, over SETTLEMENT_MAX_PER_TRANSFER_USDC: the payout waits HELD, unsigned
    const order = await until('the approval to reach orders', async () => {
      const res = await merchantCall<OrderBody>(`${banner.baseUrl}/orders/create`, {
        method: 'POST',
        body: JSON.stringify({
          amount: 1000,
          currency: 'EUR',
          recepientAddress: recipient,
          kycUserUuid: kyc.body.uuid,
        }),
      });
      if (res.status === 422) return undefined;
      expect(res.status).toBe(201);
      return res.body;
    });
    const statement = (suffix: string, reversal?: { reasonCode: string }) =>
      call<Record<string, unknown>>(`${banner.adminUrl}/admin/bank-statements`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/xml' },
        body: buildCamt054({
          messageId: `ABNA-054-${suffix}-${Date.now()}`,
          accountIban: COLLECTION.iban,
          accountHolder: COLLECTION.name,
          createdAt: new Date(),
          credits: [
            {
              accountServicerRef: `R-${suffix}`,
              amount: '1000.00',
              debtorName: 'Ada Lovelace',
              debtorIban: E2E_PAYER_IBAN,
              structuredReference: order.reference,
              ...(reversal ? { reversal } : {}),
            },
          ],
        }),
      });
    expect((await statement('credit')).status).toBe(201);
    const db = new Client({ connectionString: banner.databaseUrl });
    await db.connect();
    try {
      await until('the payout to be held over the cap', async () => {
        const { rows } = await db.query<{ state: string }>(
          `SELECT state FROM settlement.settlements WHERE order_uuid = $1`,
          [order.uuid],
        );
        return rows[0]?.state === 'HELD' ? true : undefined;
      });
      // the bank recalls the payment (FR01: fraud) before anyone released the payout
      const recall = await statement('recall', { reasonCode: 'FR01' });
      expect(recall.status).toBe(201);
      expect(recall.body).toMatchObject({ entries: 1, creditsBooked: 0 });

      const failed = await until(`order ${order.uuid} to fail`, async () => {
        const res = await merchantCall<OrderBody & { failureReason?: string }>(
          `${banner.baseUrl}/orders/${order.uuid}/payment-details`,
        );
        return res.body.status === 'FAILED' ? res.body : undefined;
      });
      const reason = 'payment reversed by the bank (FR01) before payout';
      expect(failed.failureReason).toBe(reason);
      const hook = await receiver.waitFor((w) => w.body.orderUuid === order.uuid, 60_000);
      expect(verifyWebhook(hook.rawBody, hook.headers['x-webhook-signature'], webhookSecret)).toBe(true);
      expect(hook.body).toMatchObject({
        event: 'order.failed',
        status: 'FAILED',
        message: reason,
        sentTokenAmount: 0,
      });
      expect(receiver.received.filter((w) => w.body.orderUuid === order.uuid)).toHaveLength(1);
      const { rows } = await db.query<{ state: string; nonce: string | null }>(
        `SELECT state, nonce::text FROM settlement.settlements WHERE order_uuid = $1`,
        [order.uuid],
      );
      expect(rows).toEqual([{ state: 'CANCELLED', nonce: null }]);
    } finally {
      await db.end();
    }
    const provider = new JsonRpcProvider(banner.rpcUrl);
    const usdc = new Contract(banner.usdcAddress, USDC_ABI, provider);
    expect((await usdc.balanceOf(recipient)) as bigint).toBe(0n);
    provider.destroy();

    const reversed = await until('the operator to read that the payout was stopped', async () => {
      const list = (await admin('/admin/bank-transactions?reversed=true')).body as unknown as {
        reason: string;
      }[];
      return list.some((c) => c.reason.includes(`order ${order.uuid}: payout stopped`)) ? list : undefined;
    });
    expect(reversed.map((c) => c.reason)).toContain(
      `REVERSED FR01 before the payout of order ${order.uuid}: payout stopped, order FAILED`,
    );
    const report = await reconcile({
      databaseUrl: banner.databaseUrl,
      rpcUrl: banner.rpcUrl,
      usdcAddress: banner.usdcAddress,
    });
    expect(report.mismatches).toEqual([]);
    expect(report.bank).toMatchObject({ reversed: '1000.00', paid: '305.00' });
  });
});
