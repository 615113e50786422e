// Topic names never change once live; a breaking payload change is a new event version.
export const Topics = {
  KycUserRegistered: 'kyc.user.registered',
  KycUserStatusChanged: 'kyc.user.status-changed',
  KycUserErased: 'kyc.user.erased',
  OrderCreated: 'order.created',
  OrderCompleted: 'order.completed',
  OrderFailed: 'order.failed',
  PaymentConfirmed: 'payment.confirmed',
  PaymentFailed: 'payment.failed',
  PaymentReversed: 'payment.reversed',
  TransferSucceeded: 'transfer.succeeded',
  TransferFailed: 'transfer.failed',
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];

export const ALL_TOPICS: readonly Topic[] = Object.values(Topics);

// Where a handler that keeps failing parks the message, with the error.
export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;
