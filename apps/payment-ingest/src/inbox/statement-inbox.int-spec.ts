import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildCamt054, generateRfReference } from '@onramp/sepa';

import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';
import { StatementInboxWatcher } from './statement-inbox.watcher';

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
      buildCamt054({
        messageId,
        accountIban: 'DE89370400440532013000',
        accountHolder: 'Onramp Collections GmbH',
        createdAt: new Date(),
        credits: [
          {
            accountServicerRef: `${messageId}-1`,
            amount: '12.34',
            debtorName: 'Ada Lovelace',
            debtorIban: 'DE02120300000000202051',
            structuredReference: generateRfReference(),
          },
        ],
      });
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
});
