import { callApi } from '../http/api-client';
import { Merchant, MerchantCredentials, merchantCredentials, merchantsTable } from '../output/records';
import { pageFooter } from '../output/table';
import { adminApi, CommandHandler, emit, listQuery, pageOf } from './command-context';

// The only commands that print a secret: the one they were asked to create or rotate.
export const createMerchant: CommandHandler = async (ctx) => {
  const res = await callApi<MerchantCredentials>(adminApi(ctx.settings), '/admin/merchants', {
    method: 'POST',
    body: { name: ctx.options.name },
  });
  emit(ctx, res.body, () => merchantCredentials(res.body));
  if (!ctx.settings.json) ctx.out.stderr('Store the secret now: it is shown only once.\n');
};

export const listMerchants: CommandHandler = async (ctx) => {
  const res = await callApi<Merchant[]>(adminApi(ctx.settings), `/admin/merchants${listQuery(ctx.options)}`);
  const page = pageOf(res, ctx.options);
  emit(ctx, page, () =>
    page.items.length === 0 && page.offset === 0
      ? 'no merchants\n'
      : merchantsTable(page.items) + pageFooter(page.items.length, page.total, page.offset),
  );
};

export const rotateMerchantSecret: CommandHandler = async (ctx) => {
  const res = await callApi<MerchantCredentials>(
    adminApi(ctx.settings),
    `/admin/merchants/${encodeURIComponent(ctx.args.merchantId)}/rotate-secret`,
    { method: 'POST' },
  );
  emit(ctx, res.body, () => merchantCredentials(res.body));
  if (!ctx.settings.json) ctx.out.stderr('The old secret no longer works. Store the new one now.\n');
};
