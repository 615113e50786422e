import { callApi } from '../http/api-client';
import { adminApi, CommandHandler, emit } from './command-context';

interface KycDecisionResult {
  uuid: string;
  status: string;
  previousStatus: string;
  statusVersion: number;
  decidedBy: string;
  decidedAt: string;
  changed: boolean;
}

export const decideKyc: CommandHandler = async (ctx) => {
  const res = await callApi<KycDecisionResult>(
    adminApi(ctx.settings),
    `/admin/kyc-users/${encodeURIComponent(ctx.args.uuid)}/decision`,
    {
      method: 'POST',
      body: { status: ctx.options.status, reason: ctx.options.reason },
    },
  );
  const r = res.body;
  emit(ctx, r, () =>
    r.changed
      ? `${r.uuid}: ${r.previousStatus} -> ${r.status} (by ${r.decidedBy} at ${r.decidedAt})\n`
      : `${r.uuid}: already ${r.status}, nothing changed\n`,
  );
};
