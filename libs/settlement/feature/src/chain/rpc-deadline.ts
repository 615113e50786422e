// A JSON-RPC call that outlived its deadline. Its effect is unknown (a send may still arrive), so
// it is classified as transient: the settlement keeps its state and is looked at again later.
export class RpcTimeoutError extends Error {
  readonly code = 'TIMEOUT';

  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} timed out after ${timeoutMs} ms`);
  }
}

// Bounds any promise in time; the slow call is abandoned, not cancelled (the HTTP request carries
// its own timeout too, which frees the socket).
export function withDeadline<T>(work: Promise<T>, timeoutMs: number, method: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RpcTimeoutError(method, timeoutMs)), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
