// A load tool of its own process, as the bench runs one: it waits for `load` requests over IPC and
// answers each with `runLoad`'s result. Its bodies are templates, one per target taken in turn, with
// every `{uuid}` replaced by a fresh UUID per request.
//
// Why a process and not the bench's own event loop: P4's receivers live in the bench process. A load
// loop in that process never crosses to another process to be answered, which the dispatcher (a
// program of its own, as every real sender is) cannot avoid; posting from here measures what the
// receivers take from another program, the only thing the dispatcher could equal.
import { randomUUID } from 'node:crypto';

import { LoadOptions, runLoad } from './load-loop';

export interface LoadRequest extends Omit<LoadOptions, 'body'> {
  type: 'load';
  id: number;
  bodies: string[];
}

process.on('message', (m: LoadRequest | { type: 'stop' }) => {
  if (m.type === 'stop') return process.exit(0);
  let turn = 0;
  const { bodies, type: _type, id, ...opts } = m;
  runLoad({ ...opts, body: () => bodies[turn++ % bodies.length].replace(/\{uuid\}/g, randomUUID()) }).then(
    (result) => process.send?.({ id, result }),
    (err: unknown) => process.send?.({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
