import { KycUserRegisteredV1 } from '../kyc-user-registered/kyc-user-registered.event';
import { KycUserStatusChangedV1 } from '../kyc-user-status-changed/kyc-user-status-changed.event';
import { OrderCompletedV1 } from '../order-completed/order-completed.event';
import { OrderCreatedV1 } from '../order-created/order-created.event';
import { OrderFailedV1 } from '../order-failed/order-failed.event';
import { PaymentConfirmedV1 } from '../payment-confirmed/payment-confirmed.event';
import { PaymentFailedV1 } from '../payment-failed/payment-failed.event';
import { Topics } from '../topics';
import { TransferFailedV1 } from '../transfer-failed/transfer-failed.event';
import { TransferSucceededV1 } from '../transfer-succeeded/transfer-succeeded.event';

// Event type == topic name; a handler for the wrong payload does not compile.
export interface EventMap {
  [Topics.KycUserRegistered]: KycUserRegisteredV1;
  [Topics.KycUserStatusChanged]: KycUserStatusChangedV1;
  [Topics.OrderCreated]: OrderCreatedV1;
  [Topics.OrderCompleted]: OrderCompletedV1;
  [Topics.OrderFailed]: OrderFailedV1;
  [Topics.PaymentConfirmed]: PaymentConfirmedV1;
  [Topics.PaymentFailed]: PaymentFailedV1;
  [Topics.TransferSucceeded]: TransferSucceededV1;
  [Topics.TransferFailed]: TransferFailedV1;
}

export type EventType = keyof EventMap;

export const EVENT_PAYLOAD_CLASSES: { [K in EventType]: new () => EventMap[K] } = {
  [Topics.KycUserRegistered]: KycUserRegisteredV1,
  [Topics.KycUserStatusChanged]: KycUserStatusChangedV1,
  [Topics.OrderCreated]: OrderCreatedV1,
  [Topics.OrderCompleted]: OrderCompletedV1,
  [Topics.OrderFailed]: OrderFailedV1,
  [Topics.PaymentConfirmed]: PaymentConfirmedV1,
  [Topics.PaymentFailed]: PaymentFailedV1,
  [Topics.TransferSucceeded]: TransferSucceededV1,
  [Topics.TransferFailed]: TransferFailedV1,
};

export const CURRENT_EVENT_VERSION = 1;
