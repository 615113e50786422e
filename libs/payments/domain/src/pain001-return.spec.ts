import { XMLParser } from 'fast-xml-parser';

import { buildPain001Return, ReturnInitiation } from './pain001-return';

const initiation: ReturnInitiation = {
  messageId: 'RET-20261123-0001',
  createdAt: new Date('2026-11-23T19:00:00.123Z'),
  requestedExecutionDate: '2026-11-24',
  debtor: { name: 'Onramp Collections GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  payments: [
    {
      instructionId: 'ret_8f3a2c',
      originalEndToEndId: 'FD-20261123-0042',
      amount: '250000',
      creditorName: 'Frédéric Dupont & Fils <SARL>',
      creditorIban: 'FR14 2004 1010 0505 0001 3M02 606',
      creditorBic: 'PSSTFRPPPAR',
      remittance: 'Return of your payment: amount above the order maximum',
    },
    {
      instructionId: 'ret_91bb07',
      originalEndToEndId: null,
      amount: '50.5',
      creditorName: 'Ana Núñez García',
      creditorIban: 'ES9121000418450200051332',
      creditorBic: null,
      remittance: 'Return: third-party payment',
    },
  ],
};

type Node = Record<string, unknown>;
const get = (node: unknown, path: string): unknown =>
  path.split('/').reduce<unknown>((n, key) => (n as Node | undefined)?.[key], node);

describe('buildPain001Return', () => {
  const xml = buildPain001Return(initiation);
  const doc = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (n) => n === 'CdtTrfTxInf',
  }).parse(xml) as Node;

  it('is a pain.001.001.09 document', () => {
    expect(get(doc, 'Document/@_xmlns')).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
  });

  it('has every required group header and payment information element', () => {
    const g = 'Document/CstmrCdtTrfInitn/GrpHdr';
    expect(get(doc, `${g}/MsgId`)).toBe('RET-20261123-0001');
    expect(get(doc, `${g}/CreDtTm`)).toBe('2026-11-23T19:00:00Z');
    expect(get(doc, `${g}/NbOfTxs`)).toBe('2');
    expect(get(doc, `${g}/CtrlSum`)).toBe('250050.50');
    expect(get(doc, `${g}/InitgPty/Nm`)).toBe('Onramp Collections GmbH');
    const p = 'Document/CstmrCdtTrfInitn/PmtInf';
    expect(get(doc, `${p}/PmtInfId`)).toBe('RET-20261123-0001');
    expect(get(doc, `${p}/PmtMtd`)).toBe('TRF');
    expect(get(doc, `${p}/PmtTpInf/SvcLvl/Cd`)).toBe('SEPA');
    expect(get(doc, `${p}/ReqdExctnDt/Dt`)).toBe('2026-11-24');
    expect(get(doc, `${p}/Dbtr/Nm`)).toBe('Onramp Collections GmbH');
    expect(get(doc, `${p}/DbtrAcct/Id/IBAN`)).toBe('DE89370400440532013000');
    expect(get(doc, `${p}/DbtrAgt/FinInstnId/BICFI`)).toBe('COBADEFFXXX');
    expect(get(doc, `${p}/ChrgBr`)).toBe('SLEV');
  });

  it('sends each amount back to the payer with the original end-to-end id, in SEPA characters', () => {
    const txs = get(doc, 'Document/CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf') as Node[];
    expect(txs).toHaveLength(2);
    expect(get(txs[0], 'PmtId/EndToEndId')).toBe('FD-20261123-0042');
    expect(get(txs[0], 'PmtId/InstrId')).toBe('ret_8f3a2c'.replace('_', ''));
    expect(get(txs[0], 'Amt/InstdAmt/#text')).toBe('250000.00');
    expect(get(txs[0], 'Amt/InstdAmt/@_Ccy')).toBe('EUR');
    expect(get(txs[0], 'Cdtr/Nm')).toBe('Frederic Dupont + Fils SARL');
    expect(get(txs[0], 'CdtrAcct/Id/IBAN')).toBe('FR1420041010050500013M02606');
    expect(get(txs[0], 'CdtrAgt/FinInstnId/BICFI')).toBe('PSSTFRPPPAR');
    expect(get(txs[1], 'PmtId/EndToEndId')).toBe('NOTPROVIDED');
    expect(get(txs[1], 'Amt/InstdAmt/#text')).toBe('50.50');
    expect(get(txs[1], 'Cdtr/Nm')).toBe('Ana Nunez Garcia');
    expect(get(txs[1], 'CdtrAgt')).toBeUndefined();
    expect(get(txs[1], 'RmtInf/Ustrd')).toBe('Return: third-party payment');
  });

  it('refuses an empty or non-positive return', () => {
    expect(() => buildPain001Return({ ...initiation, payments: [] })).toThrow();
    expect(() =>
      buildPain001Return({ ...initiation, payments: [{ ...initiation.payments[0], amount: '0' }] }),
    ).toThrow();
  });
});
