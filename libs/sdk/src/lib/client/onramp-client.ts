import { Clock, systemClock } from '../clock';
import { ApiRequest, ApiResponse, FetchLike, HttpTransport } from '../http/http-transport';
import { CreateKycUserRequest, KycUser } from '../models/kyc-user.types';
import { CreateOrderRequest, Order } from '../models/order.types';
import { Page, PageQuery } from '../models/page.types';
import { SandboxSepaCreditRequest, SandboxSepaCreditResult } from '../models/sandbox.types';
import {
  RotatedWebhookSecret,
  SetWebhookResult,
  WebhookDelivery,
  WebhookEndpoint,
} from '../models/webhook.types';

export interface OnrampClientOptions {
  baseUrl: string; // serves /auth/token, /orders, /merchant/webhook, /sandbox
  kycUrl: string; // serves /kyc
  merchantId: string;
  merchantSecret: string;
  fetch?: FetchLike; // defaults to the global fetch; inject one to trace, proxy or test
  clock?: Clock; // decides when the cached token is due for renewal
}

export interface IdempotencyOptions {
  // Same key + same body within 24 h returns the first response; same key + other body is a 409.
  idempotencyKey?: string;
}

const idempotencyHeaders = ({ idempotencyKey }: IdempotencyOptions): Record<string, string> =>
  idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};

const segment = (value: string): string => encodeURIComponent(value);

// The merchant API: every method resolves with the response body, or rejects with OnrampApiError.
export class OnrampClient {
  private readonly transport: HttpTransport;

  constructor(options: OnrampClientOptions) {
    this.transport = new HttpTransport({
      baseUrl: options.baseUrl,
      kycUrl: options.kycUrl,
      merchantId: options.merchantId,
      merchantSecret: options.merchantSecret,
      fetch: options.fetch ?? ((url, init) => fetch(url, init)),
      clock: options.clock ?? systemClock,
    });
  }

  // The cached Bearer token (fetched when absent or about to expire).
  getAccessToken(): Promise<string> {
    return this.transport.accessToken();
  }

  // Any call with the client's auth and error handling, for what the typed methods do not cover.
  request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    return this.transport.send<T>(request);
  }

  createKycUser(body: CreateKycUserRequest, options: IdempotencyOptions = {}): Promise<KycUser> {
    return this.body({
      host: 'kyc',
      method: 'POST',
      path: '/kyc/add',
      body,
      headers: idempotencyHeaders(options),
    });
  }

  getKycUser(uuid: string): Promise<KycUser> {
    return this.body({ host: 'kyc', method: 'GET', path: `/kyc/${segment(uuid)}` });
  }

  listKycUsers(page: PageQuery = {}): Promise<Page<KycUser>> {
    return this.page({ host: 'kyc', method: 'GET', path: '/kyc/get-all', query: { ...page } });
  }

  createOrder(body: CreateOrderRequest, options: IdempotencyOptions = {}): Promise<Order> {
    return this.body({
      host: 'base',
      method: 'POST',
      path: '/orders/create',
      body,
      headers: idempotencyHeaders(options),
    });
  }

  getPaymentDetails(uuid: string): Promise<Order> {
    return this.body({ host: 'base', method: 'GET', path: `/orders/${segment(uuid)}/payment-details` });
  }

  listOrders(page: PageQuery = {}): Promise<Page<Order>> {
    return this.page({ host: 'base', method: 'GET', path: '/orders', query: { ...page } });
  }

  // Creates the endpoint (the answer then carries the secret, shown only once) or changes its URL.
  setWebhook(url: string): Promise<SetWebhookResult> {
    return this.body({ host: 'base', method: 'PUT', path: '/merchant/webhook', body: { url } });
  }

  getWebhook(): Promise<WebhookEndpoint> {
    return this.body({ host: 'base', method: 'GET', path: '/merchant/webhook' });
  }

  rotateWebhookSecret(): Promise<RotatedWebhookSecret> {
    return this.body({ host: 'base', method: 'POST', path: '/merchant/webhook/rotate-secret' });
  }

  listWebhookDeliveries(page: PageQuery = {}): Promise<Page<WebhookDelivery>> {
    return this.page({
      host: 'base',
      method: 'GET',
      path: '/merchant/webhook/deliveries',
      query: { ...page },
    });
  }

  // Sends the same body with the same event id again, now.
  redeliverWebhook(deliveryId: string): Promise<WebhookDelivery> {
    return this.body({
      host: 'base',
      method: 'POST',
      path: `/merchant/webhook/deliveries/${segment(deliveryId)}/redeliver`,
    });
  }

  // Sandbox mode only: books (or rejects) an incoming SEPA credit as if the end user had paid.
  sandboxCredit(body: SandboxSepaCreditRequest): Promise<SandboxSepaCreditResult> {
    return this.body({ host: 'base', method: 'POST', path: '/sandbox/sepa-credits', body });
  }

  private async body<T>(request: ApiRequest): Promise<T> {
    return (await this.transport.send<T>(request)).body;
  }

  private async page<T>(request: ApiRequest): Promise<Page<T>> {
    const { headers, body } = await this.transport.send<T[]>(request);
    const total = Number(headers.get('x-total-count'));
    return {
      items: body,
      total: Number.isInteger(total) && headers.has('x-total-count') ? total : body.length,
    };
  }
}
