// The bodies POSTed to the merchant's webhook URL (docs/api.md, Events).
export interface OrderCompletedWebhook {
  event: 'order.completed';
  status: 'COMPLETED';
  orderUuid: string;
  userUuid: string;
  amount: number;
  payedAmount: number;
  payerAccountHolderName: string;
  currency: 'EUR';
  fxRateBase: string; // a decimal number as a string
  fxRateEffective: string;
  fxRateUpdatedAt: string;
  sentTokenAmount: number;
  sentTokenCurrency: 'USDC';
  reference: string;
  recipientAddress: string;
  transactionHash: string;
  message: string;
  timestamp: string;
}

export interface OrderFailedWebhook {
  event: 'order.failed';
  status: 'FAILED';
  orderUuid: string;
  userUuid: string;
  amount: number;
  payedAmount: number; // 0 when nothing was paid
  sentTokenAmount: number; // 0 when nothing was sent
  sentTokenCurrency: 'USDC' | null;
  currency: 'EUR';
  reference: string;
  recipientAddress: string;
  transactionHash: string; // "" when no transaction exists
  message: string; // the reason
  timestamp: string;
}

export type OrderWebhook = OrderCompletedWebhook | OrderFailedWebhook;

// PUT /merchant/webhook: the secret is returned only when the endpoint is created.
export interface SetWebhookResult {
  url: string;
  secret?: string;
}

export interface RotatedWebhookSecret {
  url: string;
  secret: string;
}

export interface WebhookEndpoint {
  url: string;
  createdAt: string;
  updatedAt: string;
  disabled: boolean;
  disabledAt?: string;
  disabledReason?: string;
}

export type WebhookDeliveryStatus = 'PENDING' | 'NO_ENDPOINT' | 'DELIVERED' | 'DEAD' | 'DISABLED';

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: OrderWebhook['event'];
  orderUuid: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
}
