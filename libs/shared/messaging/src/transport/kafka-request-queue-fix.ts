// kafkajs 2.2.4 (its last release) re-arms a timer of 1 ms for ever on every broker connection once
// that connection has sent a request: `scheduleCheckPendingRequests` computes `throttledUntil -
// Date.now()`, negative when nothing throttles, and arms `setTimeout` with it (1 ms) even when no
// request is pending; the timer's `checkPendingRequests` calls it again. Each producer and consumer
// connection of an idle service so woke its event loop about 1,000 times a second (`strace -c`:
// 850 `epoll_pwait` a second in the idle kyc process; 4-6 % of a core per service with Kafka, none
// in the two without). Upstream: tulios/kafkajs#1556, #1604, #1704; the fix below is the one
// proposed on #1768, not released.
//
// Fixed here: with nothing pending and no throttle there is nothing to check, so no timer. Nothing
// else changes: a request that cannot go out at once is queued by `push`, which schedules the check
// (pending, so 10 ms or the throttle's end, as before), and every answer checks the queue again.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal class, no types
const RequestQueue = require('kafkajs/src/network/requestQueue') as RequestQueueClass;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the version the fix is written for
const { version } = require('kafkajs/package.json') as { version: string };

const CHECK_PENDING_REQUESTS_INTERVAL = 10; // kafkajs' own, for a queue with requests waiting

export interface RequestQueueState {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

interface RequestQueueClass {
  new (opts: Record<string, unknown>): RequestQueueState;
  prototype: RequestQueueState;
}

function scheduleCheckPendingRequests(this: RequestQueueState): void {
  if (this.throttleCheckTimeoutId) return; // a check is scheduled already
  let scheduleAt = this.throttledUntil - Date.now();
  if (this.pending.length > 0) scheduleAt = scheduleAt > 0 ? scheduleAt : CHECK_PENDING_REQUESTS_INTERVAL;
  else if (scheduleAt <= 0) return; // nothing waits and nothing throttles: nothing to check
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, scheduleAt);
}

// Applied once, when the transport is loaded, and only to the version it was written for: a newer
// kafkajs keeps its own code (kafka-request-queue-fix.spec.ts then says whether it still spins).
export function fixKafkaRequestQueue(): boolean {
  if (version !== '2.2.4') return false;
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  return true;
}

export { RequestQueue as KafkaRequestQueue };
