import { callApi } from '../http/api-client';
import { pageFooter } from '../output/table';
import { adminApi, CommandHandler, emit, pageOf } from './command-context';

interface HeldSettlement {
  orderUuid: string;
  merchantId: string;
  recipientAddress: string;
  tokenAmount: string | null;
  reason: string | null;
  heldSince: string;
}

// GET /admin/settlements?state=HELD: payouts over a payout cap, waiting for an operator.
export const listHeldSettlements: CommandHandler = async (ctx) => {
  const query = new URLSearchParams({ state: 'HELD' });
  for (const name of ['limit', 'offset'] as const) {
    const value = ctx.options[name];
    if (value !== undefined) query.set(name, value);
  }
  const res = await callApi<HeldSettlement[]>(adminApi(ctx.settings), `/admin/settlements?${query}`);
  const page = pageOf(res, ctx.options);
  emit(ctx, page, () =>
    page.items.length === 0 && page.offset === 0
      ? 'no settlement is held\n'
      : page.items
          .map(
            (h) =>
              `${h.orderUuid}  ${h.tokenAmount ?? '?'} USDC  to ${h.recipientAddress}  since ${h.heldSince}  ${h.reason ?? ''}\n`,
          )
          .join('') + pageFooter(page.items.length, page.total, page.offset),
  );
};

// POST /admin/settlements/{orderUuid}/release (scope money): signed by the next pass, past the caps.
export const releaseSettlement: CommandHandler = async (ctx) => {
  const res = await callApi<{ orderUuid: string; state: string }>(
    adminApi(ctx.settings),
    `/admin/settlements/${encodeURIComponent(ctx.args.orderUuid)}/release`,
    { method: 'POST' },
  );
  emit(
    ctx,
    res.body,
    () => `settlement of order ${res.body.orderUuid} released (${res.body.state}): signed by the next pass\n`,
  );
};
