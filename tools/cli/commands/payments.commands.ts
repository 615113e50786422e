import { callApi } from '../http/api-client';
import { adminApi, CommandHandler, emit } from './command-context';

interface SuspenseCredit {
  id: string;
  amount: string;
  currency: string;
  reference: string | null;
  payerName: string;
  payerIban: string | null;
  reason: string;
}

export const listSuspense: CommandHandler = async (ctx) => {
  const res = await callApi<SuspenseCredit[]>(
    adminApi(ctx.settings),
    '/admin/bank-transactions?suspense=true',
  );
  emit(ctx, res.body, () =>
    res.body.length === 0
      ? 'no credits in suspense\n'
      : res.body
          .map(
            (c) =>
              `${c.id}  ${c.amount} ${c.currency}  ${c.reason}  ${c.payerName} ${c.payerIban ?? ''}  ${c.reference ?? ''}\n`,
          )
          .join(''),
  );
};

export const assignCredit: CommandHandler = async (ctx) => {
  const res = await callApi<{ id: string; orderUuid: string; payedAmount: string }>(
    adminApi(ctx.settings),
    `/admin/bank-transactions/${encodeURIComponent(ctx.args.creditId)}/assign`,
    { method: 'POST', body: { orderUuid: ctx.options.order } },
  );
  emit(
    ctx,
    res.body,
    () => `credit ${res.body.id} pays order ${res.body.orderUuid}: ${res.body.payedAmount} EUR\n`,
  );
};

export const returnCredit: CommandHandler = async (ctx) => {
  const res = await callApi<{ returnId: string }>(
    adminApi(ctx.settings),
    `/admin/bank-transactions/${encodeURIComponent(ctx.args.creditId)}/return`,
    { method: 'POST', body: { reason: ctx.options.reason } },
  );
  emit(
    ctx,
    res.body,
    () => `return ${res.body.returnId} pending; pain.001 at /admin/returns/${res.body.returnId}/pain001\n`,
  );
};

interface PaymentPolicy {
  merchantId: string;
  amountPolicy: string;
  payerNamePolicy: string;
  payerNamePolicyIsDefault: boolean;
  updatedBy: string | null;
}

export const paymentPolicy: CommandHandler = async (ctx) => {
  const path = `/admin/payment-policies/${encodeURIComponent(ctx.args.merchantId)}`;
  const amount = ctx.options.amount;
  const payerName = ctx.options['payer-name'];
  const change = amount !== undefined || payerName !== undefined;
  const res = await callApi<PaymentPolicy>(
    adminApi(ctx.settings),
    path,
    change
      ? {
          method: 'PUT',
          body: {
            ...(amount !== undefined ? { amountPolicy: amount } : {}),
            ...(payerName !== undefined
              ? { payerNamePolicy: payerName === 'DEFAULT' ? null : payerName }
              : {}),
          },
        }
      : undefined,
  );
  const p = res.body;
  emit(
    ctx,
    p,
    () =>
      `merchant ${p.merchantId}: amount ${p.amountPolicy}, payer name ${p.payerNamePolicy}${p.payerNamePolicyIsDefault ? ' (default)' : ''}${p.updatedBy ? `, set by ${p.updatedBy}` : ''}\n`,
  );
};
