import { AsyncLocalStorage } from 'node:async_hooks';

// What a log line is about, carried along an HTTP request or an event's handling without passing it
// through every call: the request id (X-Request-Id, set by the gateway) and the order uuid.
export interface LogContext {
  requestId?: string;
  orderUuid?: string;
  eventId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function withLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, work);
}

// Adds to the current context (e.g. the order uuid once a handler knows it); no-op outside one.
export function addLogContext(context: LogContext): void {
  const store = storage.getStore();
  if (store) Object.assign(store, context);
}

export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}
