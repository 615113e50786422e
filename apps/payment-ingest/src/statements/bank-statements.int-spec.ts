import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { OrderFailedV2, Topics } from '@onramp/contracts';
import { OrderEventsHandler } from '@onramp/payments-feature';
import { generateRfReference } from '@onramp/sepa';
import { envelope, eventsAbout, operatorHeaders, publishedEvents } from '@onramp/testing';

import { uploadStatement } from '../testing/bank-statements';
import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';

const FIXTURES = join(__dirname, '../../../../libs/payments/domain/fixtures');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const OUTBOX = mkdtempSync(join(tmpdir(), 'onramp-returns-'));

// The references written in the fixtures, and the orders they pay.
const ORDERS = {
  exact: { reference: 'RF98K7QW4M2XZP9D3HB8NT', amount: '100.00' }, // structured field
  overpaid: { reference: 'RF70T3MZ8QH2WXK9PD4RNA', amount: '200.00' }, // free text, 205.00 paid
  endToEnd: { reference: 'RF07HB8NT4K7QW2MZP9D3X', amount: '150.00' }, // end-to-end id
  thirdParty: { reference: 'RF54P9D4KX2RT7MWQZ3HB5', amount: '50.00' },
  farAbove: { reference: 'RF21XW2NQ8T5ZH3KM7RD9P', amount: '100.00' }, // 250000.00 paid
};

describe('payment-ingest: camt.053 / camt.054 statements (integration)', () => {
  let t: PaymentIngestTestApp;
  const merchant = randomUUID();
  const orderOf: Record<string, string> = {};

  const upload = (xml: string, credential?: Record<string, string>) => uploadStatement(t, xml, credential);
  // What payment-ingest published for this suite's merchant (the relay deletes what it published;
  // the broker is shared with other suites).
  const published = async (topic: string) =>
    eventsAbout(await publishedEvents((sql) => t.dataSource.query(sql), 'payments', [topic]), [merchant]);
  const confirmations = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      (await published(Topics.PaymentConfirmed)).map((e) => {
        const data = e.envelope.data as { orderUuid: string; payedAmount: string };
        return [data.orderUuid, data.payedAmount];
      }),
    );

  beforeAll(async () => {
    t = await startPaymentIngestTestApp({ RETURNS_OUTBOX: OUTBOX });
    for (const [name, o] of Object.entries(ORDERS)) {
      orderOf[name] = randomUUID();
      // what order.created leaves behind (the handler is covered by the sandbox suites)
      await t.dataSource.query(
        `INSERT INTO payments.open_references (reference, order_uuid, merchant_id, amount, currency, recipient_address, status)
         VALUES ($1, $2, $3, $4, 'EUR', $5, 'OPEN')`,
        [o.reference, orderOf[name], merchant, o.amount, '0x' + '1'.repeat(40)],
      );
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('books the credits of a camt.054, pays exact and tolerated amounts, and changes nothing on replay', async () => {
    const first = await upload(fixture('camt054-001.02-de-sparkasse.xml'));
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      messageId: 'SPK-054-20261123-0001',
      entries: 2,
      creditsBooked: 3,
      creditsMatched: 3,
      duplicates: 0,
    });
    expect(await confirmations()).toEqual({
      [orderOf.exact]: '100',
      [orderOf.overpaid]: '205',
      [orderOf.endToEnd]: '150',
    });
    const merchants: { merchant_id: string; account_iban: string }[] = await t.dataSource.query(
      `SELECT merchant_id, account_iban FROM payments.bank_transactions WHERE statement_message_id = 'SPK-054-20261123-0001'`,
    );
    expect(merchants).toHaveLength(3);
    for (const row of merchants)
      expect(row).toEqual({ merchant_id: merchant, account_iban: 'DE89370400440532013000' });

    const again = await upload(fixture('camt054-001.02-de-sparkasse.xml'));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ creditsBooked: 0, creditsMatched: 0, duplicates: 3 });
    expect(Object.keys(await confirmations())).toHaveLength(3);
  });

  it('never pays above the maximum, skips pending entries and reversals, and knows the evening statement', async () => {
    const nl = await upload(fixture('camt054-001.08-nl-bank.xml'));
    expect(nl.json()).toMatchObject({ entries: 4, creditsBooked: 2, creditsMatched: 1, duplicates: 0 });
    expect((await confirmations())[orderOf.farAbove]).toBeUndefined();
    // its reversal (FR01, a recall) takes back the exact order's 100.00 after it paid: flagged
    const reversed = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?reversed=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?reversed=true'),
    });
    expect(reversed.statusCode).toBe(200);
    expect(reversed.json<{ amount: string; reason: string }[]>().map((c) => [c.amount, c.reason])).toEqual([
      ['100.00', `REVERSED FR01 after paying order ${orderOf.exact}`],
    ]);
    // announced in the statement's transaction, for settlement to stop the payout if still unsigned
    const announced = (await published(Topics.PaymentReversed)).map((e) => ({
      key: e.envelope.merchantId,
      data: e.envelope.data,
    }));
    expect(announced).toEqual([
      {
        key: merchant,
        data: {
          orderUuid: orderOf.exact,
          bankTransactionId: expect.any(String),
          reference: ORDERS.exact.reference,
          amount: '100',
          reason: 'FR01',
        },
      },
    ]);
    // settlement stopped the payout in time and the order FAILED: the operator reads so
    const failed = envelope(Topics.OrderFailed, merchant, {
      orderUuid: orderOf.exact,
      reference: ORDERS.exact.reference,
      amount: '100',
      currency: 'EUR',
      recipientAddress: '0x' + '1'.repeat(40),
      reason: 'payment reversed by the bank (FR01) before payout',
    } as unknown as OrderFailedV2);
    await t.dataSource.transaction((m) => t.app.get(OrderEventsHandler).closeReference(failed, m));
    const afterStop = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?reversed=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?reversed=true'),
    });
    expect(afterStop.json<{ reason: string }[]>().map((c) => c.reason)).toEqual([
      `REVERSED FR01 before the payout of order ${orderOf.exact}: payout stopped, order FAILED`,
    ]);

    // the same bookings again in the end-of-day camt.053 (another message id) book nothing twice;
    // a second payment for an order already paid waits in suspense
    const evening = await upload(fixture('camt053-001.02-de-end-of-day.xml'));
    expect(evening.json()).toMatchObject({ creditsBooked: 1, creditsMatched: 0, duplicates: 1 });

    const unknown = await upload(fixture('camt053-001.08-fr-bank.xml'));
    expect(unknown.json()).toMatchObject({ entries: 2, creditsBooked: 3, creditsMatched: 0 });

    const suspense = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?suspense=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?suspense=true'),
    });
    expect(suspense.statusCode).toBe(200);
    const items = suspense.json<
      {
        amount: string;
        reason: string;
        reference: string | null;
        payerName: string;
        payerIban: string | null;
      }[]
    >();
    expect(items.map((i) => [i.amount, i.reason])).toEqual([
      ['250000.00', 'AMOUNT_ABOVE_MAXIMUM'],
      ['19.01', 'DUPLICATE'],
      ['42.50', 'UNKNOWN_REFERENCE'],
      ['10.00', 'UNKNOWN_REFERENCE'],
      ['20.00', 'UNKNOWN_REFERENCE'],
    ]);
    expect(items[0]).toMatchObject({
      reference: 'Betaling order RF21 XW2N Q8T5 ZH3K M7RD 9P',
      payerName: 'Frédéric Dupont',
      payerIban: 'FR1420041010050500013M02606',
    });
  });

  it('lets the operator assign a suspense credit to an order: it pays exactly once', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?suspense=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?suspense=true'),
    });
    const byAmount = Object.fromEntries(
      list.json<{ id: string; amount: string }[]>().map((i) => [i.amount, i.id]),
    );
    const order = randomUUID();
    await t.dataSource.query(
      `INSERT INTO payments.open_references (reference, order_uuid, merchant_id, amount, currency, recipient_address, status)
       VALUES ($4, $1, $2, '42.50', 'EUR', $3, 'OPEN')`,
      // a fresh reference: the broker's order.* history (replayed by this app) may already hold a fixed one
      [order, merchant, '0x' + '2'.repeat(40), generateRfReference()],
    );
    const assign = (id: string, orderUuid: string) =>
      t.app.inject({
        method: 'POST',
        url: `/admin/bank-transactions/${id}/assign`,
        headers: operatorHeaders('POST', `/admin/bank-transactions/${id}/assign`),
        payload: { orderUuid },
      });
    const first = await assign(byAmount['42.50'], order);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id: byAmount['42.50'], orderUuid: order, payedAmount: '42.50' });
    expect((await confirmations())[order]).toBe('42.5');

    expect((await assign(byAmount['42.50'], order)).statusCode).toBe(409); // not in suspense any more
    expect((await assign(byAmount['10.00'], order)).statusCode).toBe(409); // the order is paid
    expect((await assign(byAmount['250000.00'], orderOf.thirdParty)).statusCode).toBe(409); // paid too
    expect((await assign(byAmount['20.00'], randomUUID())).statusCode).toBe(404);
    expect((await assign('nope', order)).statusCode).toBe(400);
    const paid: { n: number }[] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM payments.bank_transactions WHERE matched_order_uuid = $1 AND match_status = 'MATCHED'`,
      [order],
    );
    expect(paid[0].n).toBe(1);
  });

  it('never lets an assignment pay above the maximum', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?suspense=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?suspense=true'),
    });
    const big = list.json<{ id: string; amount: string }[]>().find((i) => i.amount === '250000.00')!;
    const order = randomUUID();
    await t.dataSource.query(
      `INSERT INTO payments.open_references (reference, order_uuid, merchant_id, amount, currency, recipient_address, status)
       VALUES ('RF712348231', $1, $2, '100.00', 'EUR', $3, 'OPEN')`,
      [order, merchant, '0x' + '3'.repeat(40)],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/bank-transactions/${big.id}/assign`,
      headers: operatorHeaders('POST', `/admin/bank-transactions/${big.id}/assign`),
      payload: { orderUuid: order },
    });
    expect(res.statusCode).toBe(422);
    expect((await confirmations())[order]).toBeUndefined();
  });

  it('refuses a broken file with the place it broke, and changes nothing', async () => {
    const before = await t.dataSource.query(`SELECT count(*)::int AS n FROM payments.bank_transactions`);
    const broken = fixture('camt054-001.08-nl-bank.xml')
      .replace('NLBANK20261123T101500Z7Q', 'NLBANK-OTHER')
      .replace('<ns2:Amt Ccy="EUR">50.00</ns2:Amt>\n        <ns2:CdtDbtInd>', '<ns2:CdtDbtInd>');
    const res = await upload(broken);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().detail ?? res.json().title).toMatch(/Ntfctn\[0\]\/Ntry\[1\]\/Amt/);
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM payments.bank_transactions`)).toEqual(
      before,
    );
    expect((await upload('<Document><nope')).statusCode).toBe(400);
    expect(
      (await upload(fixture('camt054-001.08-nl-bank.xml'), { 'x-admin-key': 'wrong-key' })).statusCode,
    ).toBe(401);
  });
  it('returns a suspense credit to its payer with a pain.001 carrying the original end-to-end id', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?suspense=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?suspense=true'),
    });
    const items = list.json<{ id: string; amount: string }[]>();
    const big = items.find((i) => i.amount === '250000.00')!;
    const noIban = items.find((i) => i.amount === '20.00')!;
    const ret = (id: string) =>
      t.app.inject({
        method: 'POST',
        url: `/admin/bank-transactions/${id}/return`,
        headers: operatorHeaders('POST', `/admin/bank-transactions/${id}/return`),
        payload: { reason: 'amount above the order maximum' },
      });
    const res = await ret(big.id);
    expect(res.statusCode).toBe(202);
    const { returnId } = res.json<{ returnId: string }>();
    expect((await ret(big.id)).statusCode).toBe(409);
    expect((await ret(noIban.id)).statusCode).toBe(422);

    // one audit record for the return that happened, with the operator and without the payer's data
    const audit = await t.app.inject({
      method: 'GET',
      url: '/admin/audit-log',
      headers: operatorHeaders('GET', '/admin/audit-log'),
    });
    const records = audit.json<{ action: string; target: string; operator: string }[]>();
    expect(records.filter((r) => r.action === 'bank-transaction.return')).toEqual([
      expect.objectContaining({
        target: big.id,
        operator: 'test-operator',
        after: expect.objectContaining({ returnId }),
      }),
    ]);
    expect(records.some((r) => r.action === 'bank-statement.upload')).toBe(true);
    const payer = items.find((i) => i.id === big.id) as { payerIban?: string; payerName?: string };
    if (payer.payerIban) expect(audit.body).not.toContain(payer.payerIban);
    if (payer.payerName) expect(audit.body).not.toContain(payer.payerName);

    const file = await t.app.inject({
      method: 'GET',
      url: `/admin/returns/${returnId}/pain001`,
      headers: operatorHeaders('GET', `/admin/returns/${returnId}/pain001`),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/xml');
    expect(file.body).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(file.body).toContain('<EndToEndId>FD-20261123-0042</EndToEndId>');
    expect(file.body).toContain('<InstdAmt Ccy="EUR">250000.00</InstdAmt>');
    expect(file.body).toContain('<Cdtr><Nm>Frederic Dupont</Nm></Cdtr>');
    expect(file.body).toContain('<CdtrAcct><Id><IBAN>FR1420041010050500013M02606</IBAN></Id></CdtrAcct>');
    expect(file.body).toContain('<DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>');
    expect(existsSync(join(OUTBOX, `${returnId}.pain001.xml`))).toBe(true);
    const status: { status: string }[] = await t.dataSource.query(
      `SELECT status FROM payments.returns WHERE id = $1`,
      [returnId],
    );
    expect(status[0].status).toBe('RETURN_PENDING');
    // at rest the payer's name and IBAN are sealed, in the credit, the return and its pain.001; the
    // debit below still finds the return (by the IBAN's blind index)
    const stored: unknown[] = await t.dataSource.query(
      `SELECT r.creditor_name, r.creditor_iban, r.pain001, t.payer_name, t.payer_iban
       FROM payments.returns r JOIN payments.bank_transactions t ON t.id = r.bank_transaction_id WHERE r.id = $1`,
      [returnId],
    );
    expect(JSON.stringify(stored)).toMatch(/v1\./);
    expect(JSON.stringify(stored)).not.toMatch(/Dupont|FR1420041010050500013M02606|pain\.001/i);

    // the end-of-day statement shows the money leaving: RETURNED
    const debit = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>RETURN-DEBIT-${returnId}</MsgId></GrpHdr>
<Stmt><Id>S</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">250000.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><AcctSvcrRef>DEBIT-${returnId}</AcctSvcrRef>
<NtryDtls><TxDtls><Refs><EndToEndId>FD-20261123-0042</EndToEndId></Refs><Amt Ccy="EUR">250000.00</Amt>
<RltdPties><Cdtr><Pty><Nm>Frederic Dupont</Nm></Pty></Cdtr><CdtrAcct><Id><IBAN>FR1420041010050500013M02606</IBAN></Id></CdtrAcct></RltdPties>
</TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;
    expect((await upload(debit)).json()).toMatchObject({ entries: 1, creditsBooked: 0 });
    const settled: { status: string }[] = await t.dataSource.query(
      `SELECT status FROM payments.returns WHERE id = $1`,
      [returnId],
    );
    expect(settled[0].status).toBe('RETURNED');

    const after = await t.app.inject({
      method: 'GET',
      url: '/admin/bank-transactions?suspense=true',
      headers: operatorHeaders('GET', '/admin/bank-transactions?suspense=true'),
    });
    expect(after.json<{ id: string }[]>().map((i) => i.id)).not.toContain(big.id);
    const unknown = `/admin/returns/${randomUUID()}/pain001`;
    expect(
      (await t.app.inject({ method: 'GET', url: unknown, headers: operatorHeaders('GET', unknown) }))
        .statusCode,
    ).toBe(404);
  });
});
