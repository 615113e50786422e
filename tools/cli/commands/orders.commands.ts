import { callApi } from '../http/api-client';
import { Order, orderDetails, ordersTable } from '../output/records';
import { pageFooter } from '../output/table';
import { adminApi, CommandHandler, emit, listQuery, pageOf } from './command-context';

export const getOrder: CommandHandler = async (ctx) => {
  const res = await callApi<Order>(
    adminApi(ctx.settings),
    `/admin/orders/${encodeURIComponent(ctx.args.uuid)}`,
  );
  emit(ctx, res.body, () => orderDetails(res.body));
};

export const listOrders: CommandHandler = async (ctx) => {
  const res = await callApi<Order[]>(adminApi(ctx.settings), `/admin/orders${listQuery(ctx.options)}`);
  const page = pageOf(res, ctx.options);
  emit(ctx, page, () =>
    page.items.length === 0 && page.offset === 0
      ? 'no orders\n'
      : ordersTable(page.items) + pageFooter(page.items.length, page.total, page.offset),
  );
};
