import { Inject, Injectable, Logger } from '@nestjs/common';

import { SERVICE_CREDENTIAL_HEADER, signServiceRequest } from '@onramp/auth';
import { KYC_STATUSES, KycStatus } from '@onramp/contracts';
import { ProblemException } from '@onramp/http';

import { ORDERS_CONFIG, OrdersConfig } from '../config';

const TIMEOUT_MS = 3000;

// The documented read-your-write call to the KYC service (docs/architecture.md): used only when the
// projection has not yet seen a user registered a moment ago.
@Injectable()
export class KycServiceClient {
  private readonly log = new Logger(KycServiceClient.name);

  constructor(@Inject(ORDERS_CONFIG) private readonly config: OrdersConfig) {}

  async findUser(
    merchantId: string,
    uuid: string,
  ): Promise<{ uuid: string; status: KycStatus; statusVersion: number } | null> {
    const path = `/internal/kyc-users/${encodeURIComponent(uuid)}?merchantId=${encodeURIComponent(merchantId)}`;
    const url = `${this.config.kycServiceUrl}${path}`;
    const secret = this.config.serviceSecret;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (secret) headers[SERVICE_CREDENTIAL_HEADER] = signServiceRequest('orders', secret, 'GET', path);
    let res: Response;
    try {
      res = await fetch(url, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers,
      });
    } catch (err) {
      this.log.warn(`KYC service unreachable: ${(err as Error).message}`);
      throw unavailable();
    }
    if (res.status === 404) return null;
    if (!res.ok) {
      this.log.warn(`KYC service answered ${res.status}`);
      throw unavailable();
    }
    const body = (await res.json().catch(() => null)) as {
      uuid?: unknown;
      status?: unknown;
      statusVersion?: unknown;
    } | null;
    if (body?.uuid !== uuid || !(KYC_STATUSES as readonly unknown[]).includes(body.status)) {
      this.log.warn('KYC service answered an unexpected body');
      throw unavailable();
    }
    // an older KYC service answers without a version: treat it as the registration's
    const statusVersion = typeof body.statusVersion === 'number' ? body.statusVersion : 0;
    return { uuid, status: body.status as KycStatus, statusVersion };
  }
}

const unavailable = () =>
  new ProblemException(503, 'the KYC service is temporarily unavailable; retry shortly', {
    headers: { 'Retry-After': '1' },
  });
