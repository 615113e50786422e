import { OnrampClient } from '@onramp/sdk';
import { demoKycUser, ProgrammableReceiver } from '@onramp/testing';

import { RetryStats, TransientError, withRetries } from './retry-call';
import { WebhookWatch } from './webhook-watch';

export interface SoakPlatform {
  baseUrl: string;
  kycUrl: string;
  adminUrl: string;
  adminKey: string;
}

export interface SoakMerchant {
  merchantId: string;
  client: OnrampClient;
  receiver: ProgrammableReceiver; // its webhook endpoint, on loopback
  webhooks: WebhookWatch;
  webhookSecret: string;
  kycUserUuid: string; // one end user per merchant places every order
}

export async function openSoakMerchants(
  platform: SoakPlatform,
  count: number,
  stats: RetryStats,
): Promise<SoakMerchant[]> {
  const merchants: SoakMerchant[] = [];
  for (let i = 1; i <= count; i++)
    merchants.push(await openSoakMerchant(platform, `Soak merchant ${i}`, stats));
  return merchants;
}

// A merchant as a real one sets up: credentials from the admin API, a webhook endpoint, one KYC
// user. Done before the first kill, but retried anyway (a service may still be warming up; a
// second merchant made by a retried admin call would simply stay unused).
async function openSoakMerchant(
  platform: SoakPlatform,
  name: string,
  stats: RetryStats,
): Promise<SoakMerchant> {
  const { merchantId, merchantSecret } = await withRetries(() => createMerchant(platform, name), stats);
  const client = new OnrampClient({
    baseUrl: platform.baseUrl,
    kycUrl: platform.kycUrl,
    merchantId,
    merchantSecret,
  });
  const receiver = new ProgrammableReceiver();
  const url = await receiver.start();
  const endpoint = await withRetries(() => client.setWebhook(url), stats);
  if (!endpoint.secret)
    throw new Error(`merchant ${merchantId}: the new webhook endpoint came without a secret`);
  const user = await withRetries(
    () =>
      client.createKycUser(
        demoKycUser(),
        { idempotencyKey: `soak-kyc-${merchantId}` },
      ),
    stats,
  );
  return {
    merchantId,
    client,
    receiver,
    webhooks: new WebhookWatch(receiver),
    webhookSecret: endpoint.secret,
    kycUserUuid: user.uuid,
  };
}

async function createMerchant(
  platform: SoakPlatform,
  name: string,
): Promise<{ merchantId: string; merchantSecret: string }> {
  const res = await fetch(`${platform.adminUrl}/admin/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.adminKey}` },
    body: JSON.stringify({ name }),
  });
  const text = await res.text();
  if (res.status >= 500) throw new TransientError(`create merchant: ${res.status} ${text}`);
  if (res.status !== 201) throw new Error(`create merchant: ${res.status} ${text}`);
  return JSON.parse(text) as { merchantId: string; merchantSecret: string };
}
