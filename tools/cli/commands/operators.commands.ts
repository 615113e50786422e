import { callApi } from '../http/api-client';
import { renderTable } from '../output/table';
import { adminApi, CommandHandler, emit } from './command-context';

interface OperatorRecord {
  id: string;
  scopes: string[];
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
  revokedBy: string | null;
}

// The only command that prints an operator key: the one it created (auth keeps only its hash).
export const newOperator: CommandHandler = async (ctx) => {
  const res = await callApi<OperatorRecord & { key: string }>(adminApi(ctx.settings), '/admin/operators', {
    method: 'POST',
    body: { id: ctx.args.id, scopes: ctx.args.scopes.split('+') },
  });
  emit(ctx, res.body, () => `operator ${res.body.id} (${res.body.scopes.join('+')})\nkey: ${res.body.key}\n`);
  if (!ctx.settings.json) ctx.out.stderr(`Give the key to ${res.body.id} now: it is shown only once.\n`);
};

export const listOperators: CommandHandler = async (ctx) => {
  const res = await callApi<OperatorRecord[]>(adminApi(ctx.settings), '/admin/operators');
  const items = res.body;
  emit(ctx, { items }, () =>
    items.length === 0
      ? 'no operators (only the bootstrap key and OPERATOR_KEYS entries, if any)\n'
      : renderTable(
          ['ID', 'SCOPES', 'CREATED', 'BY', 'REVOKED', 'BY'],
          items.map((o) => [
            o.id,
            o.scopes.join('+'),
            o.createdAt,
            o.createdBy,
            o.revokedAt ?? '',
            o.revokedBy ?? '',
          ]),
        ),
  );
};

export const revokeOperator: CommandHandler = async (ctx) => {
  const res = await callApi<OperatorRecord>(
    adminApi(ctx.settings),
    `/admin/operators/${encodeURIComponent(ctx.args.id)}/revoke`,
    { method: 'POST' },
  );
  emit(ctx, res.body, () => `operator ${res.body.id} revoked at ${res.body.revokedAt ?? ''}\n`);
};
