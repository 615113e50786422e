import { callApi } from '../http/api-client';
import { CommandHandler, emit, merchantApi } from './command-context';

const DEFAULT_PAYER_NAME = 'Sandbox Payer';

// As the merchant: a token from its credentials, then the sandbox bank books the end user's transfer.
// Neither the secret nor the token is ever printed.
export const sandboxCredit: CommandHandler = async (ctx) => {
  const { options, settings } = ctx;
  const basic = Buffer.from(`${options['merchant-id']}:${options['merchant-secret']}`).toString('base64');
  const token = await callApi<{ access_token: string }>(
    merchantApi(
      settings,
      `Basic ${basic}`,
      'the merchant credentials were refused: check --merchant-id and --merchant-secret',
    ),
    '/auth/token',
    { method: 'POST' },
  );
  const credit = {
    reference: options.reference,
    amount: options.amount, // a decimal string: exact, as the API accepts it
    currency: 'EUR',
    payerName: options['payer-name'] ?? DEFAULT_PAYER_NAME,
    status: options.status ?? 'BOOKED',
  };
  const res = await callApi<{ bankTransactionId: string }>(
    merchantApi(settings, `Bearer ${token.body.access_token}`, 'the access token was refused'),
    '/sandbox/sepa-credits',
    { method: 'POST', body: credit },
  );
  emit(
    ctx,
    res.body,
    () =>
      `SEPA credit of ${credit.amount} EUR for ${credit.reference} accepted (${credit.status}).\n` +
      `bankTransactionId  ${res.body.bankTransactionId}\n`,
  );
};
