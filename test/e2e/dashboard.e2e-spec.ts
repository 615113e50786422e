import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BrowserContext, chromium, Page } from 'playwright-core';

import { findRepoRoot } from '@onramp/testing';
import { verifyWebhook } from '@onramp/sdk';

import { createMerchant, kycUserBody, MerchantCredentials } from './support/api-client';
import { e2e } from './support/env';
import { TestMerchant } from './support/test-merchant';
import { WebhookReceiver } from './support/webhook-receiver';

// Debian's chromium (CI installs it in .ci/run); playwright-core only drives it, it downloads nothing.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOTS = join(findRepoRoot(), 'tmp', 'dashboard-screenshots');

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  process.stderr.write(
    `\n[dashboard e2e] SKIPPED: no chromium at ${CHROMIUM} (apt-get install -y chromium)\n`,
  );
}

(haveChromium ? describe : describe.skip)('sandbox dashboard in a real browser (chromium)', () => {
  const receiver = new WebhookReceiver();
  let creds: MerchantCredentials;
  let api: TestMerchant;
  let secret: string;
  let orderUuid: string;
  let context: BrowserContext;
  let page: Page;
  let profileDir: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    creds = await createMerchant('Dashboard GmbH');
    api = new TestMerchant(creds);
    secret = (await api.setWebhook(await receiver.start())).secret!;
    const user = await api.createKycUser(
      kycUserBody({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' }),
    );
    const order = await api.createOrder({
      amount: 42.1,
      currency: 'EUR',
      recepientAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      kycUserUuid: user.uuid,
    });
    orderUuid = order.uuid;

    // An empty profile per run; Playwright takes the profile directory as an argument of its own.
    profileDir = mkdtempSync(join(tmpdir(), 'onramp-chromium-'));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 860 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      // 404s the page expects (no QR yet, no endpoint) are logged by chromium as resource errors.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        pageErrors.push(msg.text());
    });
    page.on('dialog', (dialog) => void dialog.accept());
  });

  afterAll(async () => {
    await context?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    await receiver.stop();
  });

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  // The e2e platform's tokens live 8 s: every step starts from a fresh sign-in.
  async function signIn(hash = '#/orders'): Promise<void> {
    await page.goto(`${e2e.baseUrl()}/dashboard${hash}`);
    await page.evaluate('sessionStorage.clear()');
    await page.reload();
    await page.locator('input[name=merchantId]').fill(creds.merchantId);
    await page.locator('input[name=merchantSecret]').fill(creds.merchantSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('logout').waitFor();
  }

  it('serves the page with a strict CSP and signs in with the merchant id and secret', async () => {
    const res = await page.goto(`${e2e.baseUrl()}/dashboard`);
    expect(res?.status()).toBe(200);
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    await page.getByTestId('login-form').waitFor();
    await shot('01-login');

    await page.locator('input[name=merchantId]').fill(creds.merchantId);
    await page.locator('input[name=merchantSecret]').fill('wrong-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Unknown merchant id or wrong secret.').waitFor();

    await signIn();
    await page.getByTestId('orders-table').getByText(orderUuid).waitFor();
    await shot('02-orders');
  });

  it('shows an open order with its payment details and history, and simulates the SEPA payment', async () => {
    await signIn(`#/orders/${orderUuid}`);
    const details = page.getByTestId('payment-details');
    await details.getByText('42.1 EUR').waitFor();
    const order = await api.getPaymentDetails(orderUuid);
    await details.getByText(order.reference).waitFor();
    await page.getByTestId('status-history').getByText('CREATED', { exact: true }).waitFor();
    // The QR appears once GET /orders/{uuid}/payment-qr answers an image.
    const qr = await api.raw('base', `/orders/${orderUuid}/payment-qr`);
    if (qr.status === 200) await page.getByTestId('payment-qr').waitFor();
    await shot('03-order-open');

    await page.getByTestId('simulate-payment').click();
    await page.getByTestId('simulate-result').waitFor();

    // Settlement may outlast one 8 s token: wait through the API, then look again.
    const deadline = Date.now() + 90_000;
    let settled = await api.getPaymentDetails(orderUuid);
    while (settled.status === 'CREATED' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      settled = await api.getPaymentDetails(orderUuid);
    }
    expect(settled.status).toBe('COMPLETED');
    await signIn(`#/orders/${orderUuid}`);
    await page.getByTestId('status-history').getByText('COMPLETED', { exact: true }).waitFor();
    // Local anvil has no explorer: the hash is shown as text.
    expect(await page.getByTestId('tx-hash').textContent()).toBe(settled.transactionHash);
    await shot('04-order-completed');
  });

  it('lists the KYC users, read through the base host', async () => {
    await signIn('#/kyc');
    await page.getByTestId('kyc-table').getByText('Grace Hopper').waitFor();
    await shot('05-kyc-users');
  });

  it('reveals and rotates the webhook secret, sends a signed test event and redelivers from the log', async () => {
    await receiver.waitFor((w) => w.body.orderUuid === orderUuid);
    await signIn('#/webhook');
    await page.getByTestId('reveal-secret').click();
    expect(await page.getByTestId('webhook-secret').textContent()).toBe(secret);

    await page.getByTestId('send-test').click();
    await page.getByTestId('test-result').getByText('delivered (HTTP 200)').waitFor();
    const test = await receiver.waitFor((w) => w.body.event === 'webhook.test');
    expect(verifyWebhook(test.rawBody, String(test.headers['x-webhook-signature']), secret)).toBe(true);

    const table = page.getByTestId('deliveries-table');
    await table.getByText('order.completed').waitFor();
    const before = receiver.received.filter((w) => w.body.orderUuid === orderUuid).length;
    await table.getByTestId('redeliver').first().click();
    const deadline = Date.now() + 30_000;
    while (receiver.received.filter((w) => w.body.orderUuid === orderUuid).length === before) {
      if (Date.now() > deadline) throw new Error('no redelivery arrived');
      await new Promise((r) => setTimeout(r, 200));
    }

    await page.getByTestId('rotate-secret').click();
    const rotatedBy = Date.now() + 20_000;
    while ((await page.getByTestId('webhook-secret').textContent()) === secret && Date.now() < rotatedBy) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const rotated = await page.getByTestId('webhook-secret').textContent();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await shot('06-webhook');
  });

  it('goes back to the sign-in form when the token expires (401)', async () => {
    await signIn('#/orders');
    await new Promise((r) => setTimeout(r, (e2e.tokenTtlSeconds() + 1) * 1000));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('login-notice').getByText('Session ended').waitFor();
    await shot('07-session-expired');
    expect(pageErrors).toEqual([]);
  });

  it("is measured: the gateway's metrics (loopback admin listener) count the dashboard's calls by route", async () => {
    const res = await fetch(`${e2e.adminUrl()}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /http_requests_total\{service="gateway-base",method="GET",route="\/dashboard",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{service="gateway-base",method="POST",route="\/auth\/token",le="\+Inf"\} \d+/,
    );
    expect((await fetch(`${e2e.baseUrl()}/metrics`)).status).toBe(404);
  });
});
