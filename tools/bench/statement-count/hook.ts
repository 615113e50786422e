// `node -r` hook for the bench's platform process (`npm run bench -- --count-statements`): wraps
// pg's Client.prototype.query, which every pool, TypeORM query runner and the embedded transport go
// through, so each statement sent (BEGIN and COMMIT included) is counted before it leaves.
import { Client } from 'pg';

import { COUNTER_GLOBAL, StatementCounter, statementText } from './counter';

const counter = new StatementCounter();
(globalThis as Record<symbol, unknown>)[COUNTER_GLOBAL] = counter;

type Query = (this: Client, ...args: unknown[]) => unknown;
const proto = Client.prototype as unknown as { query: Query };
const original = proto.query;
proto.query = function countedQuery(this: Client, ...args: unknown[]): unknown {
  const text = statementText(args[0]);
  if (text !== undefined) {
    const app = (this as unknown as { connectionParameters?: { application_name?: string } })
      .connectionParameters?.application_name;
    counter.count(app ?? '?', text);
  }
  return original.apply(this, args);
};
