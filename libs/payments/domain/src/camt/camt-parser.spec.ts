import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CamtParseError } from './bank-statement';
import { parseCamt } from './camt-parser';
import { buildCamt054 } from '@onramp/sepa';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../fixtures', name), 'utf8');

describe('parseCamt', () => {
  it('reads a camt.054.001.02 with a single credit and a batch of two', () => {
    const s = parseCamt(fixture('camt054-001.02-de-sparkasse.xml'));
    expect(s).toMatchObject({
      kind: 'camt.054',
      version: '001.02',
      messageId: 'SPK-054-20261123-0001',
      entryCount: 2,
    });
    expect(s.transactions).toHaveLength(3);
    const [single, first, second] = s.transactions;
    expect(single).toMatchObject({
      key: '2026112309150001',
      accountIban: 'DE89370400440532013000',
      direction: 'CRDT',
      status: 'BOOK',
      reversal: false,
      amount: '100.00',
      currency: 'EUR',
      structuredReferences: ['RF98K7QW4M2XZP9D3HB8NT'],
      unstructured: null,
      debtorName: 'Jürgen Müller-Lüdenscheidt',
      debtorIban: 'DE02120300000000202051',
      debtorBic: 'BYLADEM1001',
      endToEndId: 'NOTPROVIDED',
      bookingDate: '2026-11-23',
    });
    expect(first).toMatchObject({
      key: '2026112309150002-A',
      amount: '205.00',
      unstructured: 'bestellung rf70 t3mz 8qh2 wxk9 pd4r na danke',
      debtorName: 'Zoë Ångström',
    });
    expect(second).toMatchObject({
      key: '2026112309150002-B',
      amount: '150.00',
      endToEndId: 'E2E-RF07HB8NT4K7QW2MZP9D3X',
      debtorName: 'Łukasz Żółkiewski',
    });
  });

  it('reads a prefixed camt.054.001.08: Pty names, Sts/Cd, pending entries and a reversal with its reason', () => {
    const s = parseCamt(fixture('camt054-001.08-nl-bank.xml'));
    expect(s).toMatchObject({
      kind: 'camt.054',
      version: '001.08',
      messageId: 'NLBANK20261123T101500Z7Q',
      entryCount: 4,
    });
    const [big, thirdParty, pending, reversal] = s.transactions;
    expect(big).toMatchObject({
      key: 'NL-0000981273',
      amount: '250000.00',
      debtorName: 'Frédéric Dupont',
      debtorBic: 'PSSTFRPPPAR',
      bookingDate: '2026-11-23T10:14:31Z',
      instructionId: 'INSTR-55120',
    });
    expect(thirdParty).toMatchObject({
      structuredReferences: ['RF54 P9D4 KX2R T7MW QZ3H B5'],
      debtorName: 'Ana Núñez García',
      debtorIban: 'ES9121000418450200051332',
    });
    expect(pending).toMatchObject({
      status: 'PDNG',
      amount: '75.00',
      unstructured: 'Incoming SCT pending screening',
    });
    expect(reversal).toMatchObject({
      direction: 'DBIT',
      reversal: true,
      returnReason: 'FR01',
      amount: '100.00',
      structuredReferences: ['RF98K7QW4M2XZP9D3HB8NT'],
    });
  });

  it('reads camt.053 statements in both versions, keys batches without their own reference by position', () => {
    const de = parseCamt(fixture('camt053-001.02-de-end-of-day.xml'));
    expect(de).toMatchObject({ kind: 'camt.053', version: '001.02', messageId: 'SPK-053-20261123' });
    expect(de.transactions.map((t) => [t.key, t.direction, t.amount])).toEqual([
      ['2026112309150001', 'CRDT', '100.00'],
      ['2026112318420007', 'CRDT', '19.01'],
      ['2026112319000008', 'DBIT', '50.00'],
    ]);
    expect(de.transactions[0].accountIban).toBe('DE89370400440532013000'); // spaces in the IBAN removed
    const fr = parseCamt(fixture('camt053-001.08-fr-bank.xml'));
    expect(fr.transactions.map((t) => [t.key, t.amount, t.debtorName])).toEqual([
      ['FRB-7781-0001', '42.50', 'Hélène Lefèvre-Château'],
      ['FRB-7781-0002/1', '10.00', 'Søren Kierkegaard'],
      ['FRB-7781-0002/2', '20.00', 'Søren Kierkegaard'],
    ]);
  });

  it('keeps amounts exact, whatever their written form', () => {
    const xml = fixture('camt053-001.08-fr-bank.xml').replace(/42\.50/g, '0000042.5');
    expect(parseCamt(xml).transactions[0].amount).toBe('42.50');
    const huge = fixture('camt053-001.08-fr-bank.xml').replace(/42\.50/g, '123456789012345.67');
    expect(parseCamt(huge).transactions[0].amount).toBe('123456789012345.67');
  });

  const broken: [string, (xml: string) => string, RegExp][] = [
    ['a tag left open', (x) => x.replace('</Refs>', ''), /not well-formed XML.*at line \d+, column \d+/],
    [
      'a missing amount',
      (x) => x.replace('<Amt Ccy="EUR">42.50</Amt>\n        <CdtDbtInd>', '<CdtDbtInd>'),
      /missing required element at \/Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/Amt/,
    ],
    [
      'an amount with a comma',
      (x) => x.replace(/42\.50/g, '42,50'),
      /amount "42,50" is not a decimal number at .*Ntry\[0\]\/Amt/,
    ],
    ['sub-cent amounts', (x) => x.replace(/42\.50/g, '42.501'), /more than 2 decimals at .*Ntry\[0\]\/Amt/],
    [
      'a batch that does not add up',
      (x) => x.replace('<Amt Ccy="EUR">20.00</Amt>', '<Amt Ccy="EUR">21.00</Amt>'),
      /adds up to 31.00, not 30.00 at .*Ntry\[1\]\/Amt/,
    ],
    [
      'an unknown direction',
      (x) => x.replace('<CdtDbtInd>CRDT</CdtDbtInd>', '<CdtDbtInd>CRED</CdtDbtInd>'),
      /CdtDbtInd must be CRDT or DBIT/,
    ],
    ['no message id', (x) => x.replace('<MsgId>FRB053.2026-11-23.000118</MsgId>', ''), /GrpHdr\/MsgId/],
    [
      'a DOCTYPE',
      (x) => x.replace('<Document', '<!DOCTYPE d [<!ENTITY a "b">]>\n<Document'),
      /DOCTYPE is not allowed/,
    ],
    ['another message type', () => '<Document><CstmrCdtTrfInitn/></Document>', /not a camt.053 or camt.054/],
    [
      'two transactions with one reference',
      (x) =>
        x
          .replace('FRB-7781-0002', 'FRB-7781-0001')
          .replace(
            '<NtryDtls>\n          <TxDtls>\n            <Amt Ccy="EUR">10.00</Amt>',
            '<NtryDtls>\n          <TxDtls>\n            <Refs><AcctSvcrRef>FRB-7781-0001</AcctSvcrRef></Refs>\n            <Amt Ccy="EUR">10.00</Amt>',
          )
          .replace('<NtryRef>0002</NtryRef>', ''),
      /two transactions share the reference FRB-7781-0001/,
    ],
  ];

  it.each(broken)('refuses %s and says where', (_, mutate, message) => {
    const xml = mutate(fixture('camt053-001.08-fr-bank.xml'));
    expect(() => parseCamt(xml)).toThrow(CamtParseError);
    expect(() => parseCamt(xml)).toThrow(message);
  });
});

describe('buildCamt054', () => {
  it('writes a notification the parser reads back, references, names and amounts intact', () => {
    const xml = buildCamt054({
      messageId: 'TEST-054-1',
      accountIban: 'NL91ABNA0417164300',
      accountHolder: 'Onramp Collections B.V.',
      createdAt: new Date('2026-11-23T10:00:00Z'),
      credits: [
        {
          accountServicerRef: 'A1',
          amount: '100.00',
          debtorName: 'Zoë Ærø & Søn',
          debtorIban: 'DE02120300000000202051',
          structuredReference: 'RF18539007547034',
        },
        {
          accountServicerRef: 'A2',
          amount: '205.00',
          debtorName: 'Jan de Vries',
          debtorIban: 'NL20INGB0001234567',
          unstructured: 'order rf18 5390 0754 7034 thanks',
        },
      ],
    });
    const statement = parseCamt(xml);
    expect(statement).toMatchObject({ messageId: 'TEST-054-1', kind: 'camt.054', entryCount: 2 });
    expect(
      statement.transactions.map((t) => [
        t.key,
        t.amount,
        t.debtorName,
        t.debtorIban,
        t.structuredReferences,
        t.unstructured,
        t.status,
        t.direction,
        t.accountIban,
      ]),
    ).toEqual([
      [
        'A1',
        '100.00',
        'Zoë Ærø & Søn',
        'DE02120300000000202051',
        ['RF18539007547034'],
        null,
        'BOOK',
        'CRDT',
        'NL91ABNA0417164300',
      ],
      [
        'A2',
        '205.00',
        'Jan de Vries',
        'NL20INGB0001234567',
        [],
        'order rf18 5390 0754 7034 thanks',
        'BOOK',
        'CRDT',
        'NL91ABNA0417164300',
      ],
    ]);
  });
});
