import { createHash, randomBytes } from 'node:crypto';

import { CommandHandler, emit } from './command-context';

// A fresh operator key and its OPERATOR_KEYS entry. Nothing is sent anywhere: the entry goes into
// the gateway's Secret (only the hash), the key to the operator.
export const newOperator: CommandHandler = async (ctx) => {
  const key = randomBytes(32).toString('base64url');
  const entry = `${ctx.args.id}:${ctx.args.scopes}:${createHash('sha256').update(key).digest('hex')}`;
  emit(
    ctx,
    { id: ctx.args.id, scopes: ctx.args.scopes.split('+'), key, entry },
    () =>
      `operator key (give it to ${ctx.args.id}; shown only once): ${key}\nOPERATOR_KEYS entry: ${entry}\n`,
  );
  return Promise.resolve();
};
