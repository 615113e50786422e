import { Contract, JsonRpcProvider, Wallet } from 'ethers';

import { Order, verifyStandardWebhook, verifyWebhook } from '@onramp/sdk';
import { ORDER_WEBHOOK_FIELDS } from '@onramp/testing';

import { createMerchant, E2E_PAYER_IBAN, kycUserBody } from './support/api-client';
import { e2e } from './support/env';
import { TestMerchant } from './support/test-merchant';
import { WebhookReceiver } from './support/webhook-receiver';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const USDC_ABI = ['function balanceOf(address) view returns (uint256)', 'function blacklist(address)'];

describe('order lifecycle through the gateway (seven processes, Kafka, Postgres, anvil)', () => {
  const receiver = new WebhookReceiver();
  let api: TestMerchant;
  let secret: string;
  let kycUserUuid: string;

  beforeAll(async () => {
    api = new TestMerchant(await createMerchant('Lifecycle GmbH'));
    const url = await receiver.start();
    const hook = await api.setWebhook(url);
    expect(api.lastResponse().status).toBe(200);
    expect(hook.secret).toEqual(expect.any(String));
    secret = hook.secret!;
    const kyc = await api.createKycUser(kycUserBody());
    expect(api.lastResponse().status).toBe(201);
    expect(kyc.status).toBe('APPROVED');
    kycUserUuid = kyc.uuid;
  });

  afterAll(() => receiver.stop());

  async function createOrder(amount: number, recipient: string): Promise<Order> {
    const order = await api.createOrder({
      amount,
      currency: 'EUR',
      recepientAddress: recipient,
      kycUserUuid,
    });
    expect(api.lastResponse().status).toBe(201);
    return order;
  }

  it('completes a paid order: USDC arrives and a signed order.completed webhook is delivered', async () => {
    const recipient = Wallet.createRandom().address;
    const order = await createOrder(100.5, recipient);
    expect(order).toMatchObject({
      amount: 100.5,
      currency: 'EUR',
      orderStatus: 'CREATED',
      status: 'CREATED',
      kycUserUuid,
    });
    expect(order.reference).toMatch(/^RF\d{2}[0-9A-Z]{1,21}$/);
    expect(order.iban).toEqual(expect.any(String));
    expect(order.bic).toEqual(expect.any(String));

    // The end user types the reference in lower case with spaces inside free text.
    const spaced = order.reference.toLowerCase().replace(/(.{4})/g, '$1 ');
    await api.sandboxCredit({
      amount: 100.5,
      currency: 'EUR',
      payerName: 'Ada Lovelace',
      payerIban: E2E_PAYER_IBAN, // the log scan after the run looks for it
      remittanceInformation: `order ${spaced} thanks`,
    });
    expect(api.lastResponse().status).toBe(202);

    const hook = await receiver.waitFor((w) => w.body.orderUuid === order.uuid);
    expect(verifyWebhook(hook.rawBody, hook.headers['x-webhook-signature'], secret)).toBe(true);
    expect(verifyStandardWebhook(hook.rawBody, hook.headers, secret)).toBe(true);
    expect(hook.headers['content-type']).toMatch(/^application\/json/);
    const body = hook.body;
    expect(Object.keys(body).sort()).toEqual([...ORDER_WEBHOOK_FIELDS['order.completed']].sort());
    expect(body).toMatchObject({
      event: 'order.completed',
      status: 'COMPLETED',
      orderUuid: order.uuid,
      userUuid: kycUserUuid,
      amount: 100.5,
      payedAmount: 100.5,
      payerAccountHolderName: 'Ada Lovelace',
      currency: 'EUR',
      sentTokenCurrency: 'USDC',
      reference: order.reference,
      recipientAddress: recipient,
    });
    expect(body.fxRateBase).toMatch(/^\d+(\.\d+)?$/);
    expect(body.fxRateEffective).toMatch(/^\d+(\.\d+)?$/);
    expect(body.fxRateUpdatedAt).toEqual(expect.any(String));
    expect(body.timestamp).toMatch(ISO_MS_UTC);
    expect(body.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof body.sentTokenAmount).toBe('number');

    const provider = new JsonRpcProvider(e2e.rpcUrl(), undefined, { cacheTimeout: -1 });
    const usdc = new Contract(e2e.usdcAddress(), USDC_ABI, provider);
    const balance = (await usdc.balanceOf(recipient)) as bigint;
    expect(balance).toBe(BigInt(Math.round((body.sentTokenAmount as number) * 1e6)));
    expect(balance).toBeGreaterThan(0n);

    const details = await api.getPaymentDetails(order.uuid);
    expect(api.lastResponse().status).toBe(200);
    expect(details).toMatchObject({
      uuid: order.uuid,
      orderStatus: 'COMPLETED',
      status: 'COMPLETED',
      reference: order.reference,
    });
    expect(details.transactionHash).toBe(body.transactionHash);
  });

  it('fails an order whose SEPA credit is REJECTED and sends order.failed without payer or FX fields', async () => {
    const order = await createOrder(20, Wallet.createRandom().address);
    await api.sandboxCredit({
      reference: order.reference,
      amount: 20,
      currency: 'EUR',
      payerName: 'Bob',
      status: 'REJECTED',
    });
    expect(api.lastResponse().status).toBe(202);
    const hook = await receiver.waitFor((w) => w.body.orderUuid === order.uuid);
    expect(verifyWebhook(hook.rawBody, hook.headers['x-webhook-signature'], secret)).toBe(true);
    expect(hook.body).toMatchObject({
      event: 'order.failed',
      status: 'FAILED',
      amount: 20,
      payedAmount: 0,
      sentTokenAmount: 0,
      sentTokenCurrency: null,
      transactionHash: '',
      currency: 'EUR',
      reference: order.reference,
    });
    expect(hook.body).not.toHaveProperty('payerAccountHolderName');
    expect(Object.keys(hook.body).some((k) => k.startsWith('fxRate'))).toBe(false);
    expect(hook.body.timestamp).toMatch(ISO_MS_UTC);
    expect((await api.getPaymentDetails(order.uuid)).orderStatus).toBe('FAILED');
  });

  it('fails an order whose recipient is USDC-blacklisted, before any payout is signed', async () => {
    const recipient = Wallet.createRandom().address;
    const provider = new JsonRpcProvider(e2e.rpcUrl(), undefined, { cacheTimeout: -1 });
    const owner = new Wallet(e2e.usdcOwnerKey(), provider);
    await (
      (await new Contract(e2e.usdcAddress(), USDC_ABI, owner).blacklist(recipient)) as {
        wait(): Promise<unknown>;
      }
    ).wait();

    const order = await createOrder(15, recipient);
    await api.sandboxCredit({ reference: order.reference, amount: 15, currency: 'EUR', payerName: 'Eve' });
    const hook = await receiver.waitFor((w) => w.body.orderUuid === order.uuid);
    expect(hook.body).toMatchObject({
      event: 'order.failed',
      status: 'FAILED',
      payedAmount: 15,
      sentTokenAmount: 0,
      sentTokenCurrency: null,
    });
    expect(hook.body.transactionHash).toBe(''); // screened before signing: nothing reached the chain
    const balance = (await new Contract(e2e.usdcAddress(), USDC_ABI, provider).balanceOf(
      recipient,
    )) as bigint;
    expect(balance).toBe(0n);
  });
});
