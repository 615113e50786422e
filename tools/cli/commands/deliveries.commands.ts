import { callApi } from '../http/api-client';
import { deliveriesTable, Delivery, deliveryFields } from '../output/records';
import { pageFooter } from '../output/table';
import { adminApi, CommandHandler, emit, listQuery, pageOf } from './command-context';

export const listDeliveries: CommandHandler = async (ctx) => {
  const res = await callApi<Delivery[]>(
    adminApi(ctx.settings),
    `/admin/webhook-deliveries${listQuery(ctx.options)}`,
  );
  const page = pageOf(res, ctx.options);
  emit(ctx, page, () =>
    page.items.length === 0 && page.offset === 0
      ? 'no webhook deliveries\n'
      : deliveriesTable(page.items) + pageFooter(page.items.length, page.total, page.offset),
  );
};

export const redeliver: CommandHandler = async (ctx) => {
  const res = await callApi<Delivery>(
    adminApi(ctx.settings),
    `/admin/webhook-deliveries/${encodeURIComponent(ctx.args.deliveryId)}/redeliver`,
    { method: 'POST' },
  );
  emit(ctx, res.body, () => `Redelivery queued.\n${deliveryFields(res.body)}`);
};
