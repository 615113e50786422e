export type OrderStatus = 'CREATED' | 'COMPLETED' | 'FAILED';

interface CreateOrderFields {
  // A JSON number, EUR with at most 2 decimals (a decimal string is refused with a 400).
  amount: number;
  currency: 'EUR';
  kycUserUuid: string;
}

// docs/api.md spells the field `recepientAddress`; the API also accepts `recipientAddress`. Give one.
export type CreateOrderRequest = CreateOrderFields &
  (
    | { recepientAddress: string; recipientAddress?: never }
    | { recipientAddress: string; recepientAddress?: never }
  );

// The order object of create, payment-details and list; the settlement fields appear once known.
export interface Order {
  uuid: string;
  amount: number;
  currency: 'EUR';
  recepientAddress: string;
  kycUserUuid: string;
  iban: string;
  bic: string;
  beneficiaryName?: string; // account holder of iban
  reference: string;
  orderStatus: OrderStatus;
  status: OrderStatus;
  createdAt: string;
  updatedAt: string;
  payedAmount?: number;
  sentTokenAmount?: number;
  transactionHash?: string;
  failureReason?: string;
  completedAt?: string;
  failedAt?: string;
  epcQrPayload?: string; // EPC069-12 "GiroCode" payload, while CREATED
}
