import { callApi } from '../http/api-client';
import { renderTable } from '../output/table';
import { adminApi, CommandHandler, emit } from './command-context';

interface AuditRecord {
  id: string;
  service: string;
  operator: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  requestId: string | null;
  at: string;
}

const brief = (value: unknown): string => (value == null ? '' : JSON.stringify(value));

// GET /admin/audit: who changed what, newest first, across the services.
export const listAudit: CommandHandler = async (ctx) => {
  const query = new URLSearchParams();
  if (ctx.options.limit) query.set('limit', ctx.options.limit);
  if (ctx.options.before) query.set('before', ctx.options.before);
  const qs = query.toString();
  const res = await callApi<AuditRecord[]>(adminApi(ctx.settings), `/admin/audit${qs ? `?${qs}` : ''}`);
  const items = res.body;
  emit(ctx, { items }, () =>
    items.length === 0
      ? 'no audit records\n'
      : renderTable(
          ['AT', 'OPERATOR', 'SERVICE', 'ACTION', 'TARGET', 'BEFORE', 'AFTER'],
          items.map((r) => [
            r.at,
            r.operator,
            r.service,
            r.action,
            r.target,
            brief(r.before),
            brief(r.after),
          ]),
        ) + (items.length > 0 ? `older: --before ${items[items.length - 1]!.at}\n` : ''),
  );
};
