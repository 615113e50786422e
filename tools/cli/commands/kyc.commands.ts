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

interface KycErasureResult {
  uuid: string;
  erasedAt: string;
  erasedBy: string;
  idempotencyRecords: number;
  changed: boolean;
}

export const eraseKyc: CommandHandler = async (ctx) => {
  const res = await callApi<KycErasureResult>(
    adminApi(ctx.settings),
    `/admin/kyc-users/${encodeURIComponent(ctx.args.uuid)}/erase`,
    { method: 'POST' },
  );
  const r = res.body;
  emit(ctx, r, () =>
    r.changed
      ? `${r.uuid}: personal data erased (by ${r.erasedBy} at ${r.erasedAt}); the user is REJECTED\n`
      : `${r.uuid}: already erased (by ${r.erasedBy} at ${r.erasedAt})\n`,
  );
};
