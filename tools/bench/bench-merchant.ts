import { OnrampClient } from '@onramp/sdk';
import { demoKycUser, ProgrammableReceiver } from '@onramp/testing';

import { HostReady } from './platform-host';

export interface BenchMerchant {
  merchantId: string;
  client: OnrampClient;
  token: string;
  receiver: ProgrammableReceiver;
  receiverUrl: string;
  kycUserUuid: string;
}

export const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

// Every merchant's endpoint answers until the bench ends: a stopped one would leave deliveries
// the dispatcher keeps retrying while the next probe measures.
const receivers: ProgrammableReceiver[] = [];
export const stopReceivers = (): Promise<unknown> => Promise.all(receivers.splice(0).map((r) => r.stop()));

// A merchant set up as a real one is: credentials from the admin API, a webhook endpoint on
// loopback, one KYC user who places every order.
export async function openMerchant(platform: HostReady, name: string): Promise<BenchMerchant> {
  const res = await fetch(`${platform.urls.admin}/admin/merchants`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${platform.secrets.ADMIN_API_KEY}`,
    },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`create merchant: ${res.status} ${await res.text()}`);
  const { merchantId, merchantSecret } = (await res.json()) as { merchantId: string; merchantSecret: string };
  const client = new OnrampClient({
    baseUrl: platform.urls.base,
    kycUrl: platform.urls.kyc,
    merchantId,
    merchantSecret,
  });
  const receiver = new ProgrammableReceiver();
  receivers.push(receiver);
  const receiverUrl = await receiver.start();
  await client.setWebhook(receiverUrl);
  const user = await client.createKycUser(demoKycUser());
  return {
    merchantId,
    client,
    token: await client.getAccessToken(),
    receiver,
    receiverUrl,
    kycUserUuid: user.uuid,
  };
}

export const orderBody = (m: BenchMerchant, amount = '10.00'): string =>
  JSON.stringify({
    amount: Number(amount),
    currency: 'EUR',
    recepientAddress: RECIPIENT,
    kycUserUuid: m.kycUserUuid,
  });

// Creates `count` orders, `concurrency` at a time; returns uuid and SEPA reference of each.
export async function createOrders(
  m: BenchMerchant,
  count: number,
  concurrency = 16,
): Promise<Array<{ uuid: string; reference: string }>> {
  const out: Array<{ uuid: string; reference: string }> = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const order = await m.client.createOrder({
        amount: 10,
        currency: 'EUR',
        recepientAddress: RECIPIENT,
        kycUserUuid: m.kycUserUuid,
      });
      out.push({ uuid: order.uuid, reference: order.reference });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, () => worker()));
  return out;
}

// Books the end user's SEPA credit for one order through the gateway's sandbox bank.
export async function credit(platform: HostReady, m: BenchMerchant, reference: string): Promise<void> {
  const res = await fetch(`${platform.urls.base}/sandbox/sepa-credits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${m.token}` },
    body: JSON.stringify({ reference, amount: '10.00', currency: 'EUR', payerName: 'Ada Lovelace' }),
  });
  if (res.status >= 300) throw new Error(`sandbox credit: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

// When each order's first accepted webhook arrived, by order uuid.
export function webhookTimes(m: BenchMerchant): Map<string, number> {
  const times = new Map<string, number>();
  for (const d of m.receiver.log)
    if (d.answered === 200 && !times.has(d.orderUuid)) times.set(d.orderUuid, d.at);
  return times;
}
