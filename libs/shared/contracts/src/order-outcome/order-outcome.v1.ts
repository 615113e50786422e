import { fromWireNumber } from '@onramp/money';

// Version 1 of order.completed / order.failed was the webhook body itself: JSON numbers for
// amounts, `userUuid`, `message`, `timestamp`, plus `event` and `status`. Events of that shape
// may still wait in an outbox or on a topic while a deployment rolls, so consumers read them
// through these upcasts into version 2. Drop them once no version-1 event can be left (outboxes
// drained and the topics' retention passed since the last producer of version 1 stopped).

type Data = Record<string, unknown>;

// JSON.stringify printed the shortest decimal of the double; reading it back gives the same digits.
const decimal = (value: unknown): unknown => (typeof value === 'number' ? fromWireNumber(value) : value);

function orderFieldsOf(body: Data): Data {
  const { event: _event, status: _status, userUuid, amount, payedAmount, sentTokenAmount, ...rest } = body;
  return {
    ...rest,
    kycUserUuid: userUuid,
    amount: decimal(amount),
    payedAmount: decimal(payedAmount),
    sentTokenAmount: decimal(sentTokenAmount),
  };
}

export function upcastOrderCompletedV1(body: Data): Data {
  const { timestamp, ...rest } = orderFieldsOf(body);
  return { ...rest, completedAt: timestamp };
}

export function upcastOrderFailedV1(body: Data): Data {
  const { timestamp, message, ...rest } = orderFieldsOf(body);
  return { ...rest, reason: message, failedAt: timestamp };
}
