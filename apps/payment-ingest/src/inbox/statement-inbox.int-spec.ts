import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { StatementInboxWatcher } from '@onramp/payments-feature';
import { generateRfReference } from '@onramp/sepa';

import { operatorHeaders } from '@onramp/testing';

import { collectionCamt054 } from '../testing/bank-statements';
import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';

describe('payment-ingest: BANK_STATEMENT_INBOX (integration)', () => {
  const inbox = mkdtempSync(join(tmpdir(), 'onramp-inbox-'));
  let t: PaymentIngestTestApp;
  let watcher: StatementInboxWatcher;

  beforeAll(async () => {
    t = await startPaymentIngestTestApp({ BANK_STATEMENT_INBOX: inbox });
    watcher = t.app.get(StatementInboxWatcher);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('books each complete file once, moves it to done/, and a broken one to failed/ with the reason', async () => {
    const statement = (messageId: string) =>
      collectionCamt054(messageId, [
        {
          accountServicerRef: `${messageId}-1`,
          amount: '12.34',
          debtorName: 'Ada Lovelace',
          debtorIban: 'DE02120300000000202051',
          structuredReference: generateRfReference(),
        },
      ]);
    const id = randomUUID();
    writeFileSync(join(inbox, 'camt054-morning.xml'), statement(`INBOX-${id}`));
    writeFileSync(join(inbox, 'camt054-again.xml'), statement(`INBOX-${id}`)); // the same file twice
    writeFileSync(join(inbox, 'broken.xml'), '<Document><BkToCstmrDbtCdtNtfctn>');
    writeFileSync(join(inbox, 'still-writing.xml.part'), statement(`INBOX-${randomUUID()}`));

    await watcher.poll();
    expect(readdirSync(join(inbox, 'done')).sort()).toEqual(['camt054-again.xml', 'camt054-morning.xml']);
    expect(readdirSync(join(inbox, 'failed')).sort()).toEqual(['broken.xml', 'broken.xml.reason.txt']);
    expect(readFileSync(join(inbox, 'failed', 'broken.xml.reason.txt'), 'utf8')).toMatch(
      /bank statement not read: .*line/,
    );
    expect(existsSync(join(inbox, 'still-writing.xml.part'))).toBe(true);
    const booked: { n: number }[] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM payments.bank_transactions WHERE statement_message_id = $1`,
      [`INBOX-${id}`],
    );
    expect(booked).toEqual([{ n: 1 }]);

    // a second pass finds nothing new
    await watcher.poll();
    expect(readdirSync(join(inbox, 'done'))).toHaveLength(2);
  });

  it('a reversal takes a suspense credit out of the queue: nothing is left to return or assign', async () => {
    const reference = generateRfReference();
    const credit = {
      amount: '42.00',
      debtorName: 'Grace Hopper',
      debtorIban: 'DE12500105170648489890',
      structuredReference: reference,
    };
    const file = (messageId: string, entry: Record<string, unknown>) =>
      collectionCamt054(messageId, [{ ...credit, ...entry } as never]);
    writeFileSync(
      join(inbox, 'credit.xml'),
      file(`REV-${randomUUID()}`, { accountServicerRef: `C-${reference}` }),
    );
    await watcher.poll();
    writeFileSync(
      join(inbox, 'reversal.xml'),
      file(`REV-${randomUUID()}`, { accountServicerRef: `R-${reference}`, reversal: { reasonCode: 'AC04' } }),
    );
    await watcher.poll();
    const rows: { reason: string; reversal: string; id: string }[] = await t.dataSource.query(
      `SELECT id, suspense_reason AS reason, reversal_reason AS reversal FROM payments.bank_transactions WHERE account_servicer_ref = $1`,
      [`C-${reference}`],
    );
    expect(rows).toEqual([{ id: expect.any(String), reason: 'UNKNOWN_REFERENCE', reversal: 'AC04' }]);
    const suspense = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?suspense=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?suspense=true'),
    });
    expect(suspense.json<{ id: string }[]>().map((c) => c.id)).not.toContain(rows[0]!.id);
    const path = `/admin/bank-transactions/${rows[0]!.id}/return`;
    const ret = await t.app.inject({
      method: 'POST',
      url: path,
      headers: operatorHeaders('POST', path),
      payload: { reason: 'x' },
    });
    expect(ret.statusCode).toBe(409);
  });
});
