import { KycUserErasedV1 } from '../kyc-user-erased/kyc-user-erased.event';
import { KycUserRegisteredV1 } from '../kyc-user-registered/kyc-user-registered.event';
import { KycUserStatusChangedV1 } from '../kyc-user-status-changed/kyc-user-status-changed.event';
import { OrderCompletedV2 } from '../order-completed/order-completed.event';
import { OrderCreatedV1 } from '../order-created/order-created.event';
import { OrderFailedV2 } from '../order-failed/order-failed.event';
import { PaymentConfirmedV1 } from '../payment-confirmed/payment-confirmed.event';
import { PaymentFailedV1 } from '../payment-failed/payment-failed.event';
import { PaymentReversedV1 } from '../payment-reversed/payment-reversed.event';
import { upcastOrderCompletedV1, upcastOrderFailedV1 } from '../order-outcome/order-outcome.v1';
import { Topics } from '../topics';
import { TransferFailedV1 } from '../transfer-failed/transfer-failed.event';
import { TransferSucceededV1 } from '../transfer-succeeded/transfer-succeeded.event';

// Event type == topic name; a handler for the wrong payload does not compile.
export interface EventMap {
  [Topics.KycUserRegistered]: KycUserRegisteredV1;
  [Topics.KycUserStatusChanged]: KycUserStatusChangedV1;
  [Topics.KycUserErased]: KycUserErasedV1;
  [Topics.OrderCreated]: OrderCreatedV1;
  [Topics.OrderCompleted]: OrderCompletedV2;
  [Topics.OrderFailed]: OrderFailedV2;
  [Topics.PaymentConfirmed]: PaymentConfirmedV1;
  [Topics.PaymentFailed]: PaymentFailedV1;
  [Topics.PaymentReversed]: PaymentReversedV1;
  [Topics.TransferSucceeded]: TransferSucceededV1;
  [Topics.TransferFailed]: TransferFailedV1;
}

export type EventType = keyof EventMap;

export const EVENT_PAYLOAD_CLASSES: { [K in EventType]: new () => EventMap[K] } = {
  [Topics.KycUserRegistered]: KycUserRegisteredV1,
  [Topics.KycUserStatusChanged]: KycUserStatusChangedV1,
  [Topics.KycUserErased]: KycUserErasedV1,
  [Topics.OrderCreated]: OrderCreatedV1,
  [Topics.OrderCompleted]: OrderCompletedV2,
  [Topics.OrderFailed]: OrderFailedV2,
  [Topics.PaymentConfirmed]: PaymentConfirmedV1,
  [Topics.PaymentFailed]: PaymentFailedV1,
  [Topics.PaymentReversed]: PaymentReversedV1,
  [Topics.TransferSucceeded]: TransferSucceededV1,
  [Topics.TransferFailed]: TransferFailedV1,
};

// The payload version each type is written in (the envelope's `version`, header event-version):
// 1 unless listed. A breaking payload change is a new version, never a new topic.
const WRITTEN_VERSIONS: { [K in EventType]?: number } = {
  [Topics.OrderCompleted]: 2,
  [Topics.OrderFailed]: 2,
};

export const eventVersion = (type: EventType): number => WRITTEN_VERSIONS[type] ?? 1;

// Older versions still read (never written), each with its way up to the written version.
type Upcast = (data: Record<string, unknown>) => Record<string, unknown>;
export const EVENT_UPCASTS: { [K in EventType]?: Record<number, Upcast> } = {
  [Topics.OrderCompleted]: { 1: upcastOrderCompletedV1 },
  [Topics.OrderFailed]: { 1: upcastOrderFailedV1 },
};
