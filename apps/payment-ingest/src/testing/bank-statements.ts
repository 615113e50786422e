import { buildCamt054, Camt054Credit } from '@onramp/sepa';
import { operatorHeaders } from '@onramp/testing';

import { PaymentIngestTestApp } from './payment-ingest-test-app';

const STATEMENTS = '/admin/bank-statements';

// A camt.054 of the collection account (the one the sandbox config names) booking these credits now.
export function collectionCamt054(messageId: string, credits: Camt054Credit[]): string {
  return buildCamt054({
    messageId,
    accountIban: 'DE89370400440532013000',
    accountHolder: 'Onramp Collections GmbH',
    createdAt: new Date(),
    credits,
  });
}

// The operator's upload of a statement, as the gateway forwards it (signed operator headers by default).
export const uploadStatement = (
  t: PaymentIngestTestApp,
  xml: string,
  credential: Record<string, string> = operatorHeaders('POST', STATEMENTS),
) =>
  t.app.inject({
    method: 'POST',
    url: STATEMENTS,
    headers: { 'content-type': 'application/xml', ...credential },
    payload: xml,
  });
