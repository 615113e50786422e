import { fromScaledFixed, toScaled } from '@onramp/money';

import { escapeXml, toSepaText } from './sepa-text';

export interface ReturnDebtorAccount {
  name: string; // the collection account holder
  iban: string;
  bic: string | null;
}

export interface ReturnPayment {
  instructionId: string; // our return id, max 35
  originalEndToEndId: string | null; // carried back so the payer's bank can link the return
  amount: string; // EUR decimal
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  remittance: string; // why the money comes back
}

export interface ReturnInitiation {
  messageId: string; // max 35
  createdAt: Date;
  requestedExecutionDate: string; // YYYY-MM-DD
  debtor: ReturnDebtorAccount;
  payments: ReturnPayment[];
}

const NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

const id35 = (value: string): string => toSepaText(value, 35).replace(/ /g, '') || 'NOTPROVIDED';

// A SEPA credit transfer initiation (pain.001.001.09) sending credits back to their payers, one
// transaction each, with every element the schema requires: GrpHdr (MsgId, CreDtTm, NbOfTxs,
// InitgPty), PmtInf (PmtInfId, PmtMtd, ReqdExctnDt, Dbtr, DbtrAcct, DbtrAgt) and per
// transaction PmtId/EndToEndId, Amt/InstdAmt, Cdtr and CdtrAcct.
export function buildPain001Return(initiation: ReturnInitiation): string {
  if (initiation.payments.length === 0) throw new Error('a pain.001 needs at least one payment');
  const total = initiation.payments.reduce((sum, p) => sum + toScaled(p.amount, 2), 0n);
  const controlSum = fromScaledFixed(total, 2);
  const count = String(initiation.payments.length);
  const x = (text: string): string => escapeXml(text);
  const msgId = id35(initiation.messageId);
  const agent = (bic: string | null): string =>
    bic
      ? `<FinInstnId><BICFI>${x(bic)}</BICFI></FinInstnId>`
      : '<FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId>';

  const transactions = initiation.payments.map((p) => {
    const amount = fromScaledFixed(toScaled(p.amount, 2), 2);
    if (toScaled(amount, 2) <= 0n) throw new Error('a return amount must be positive');
    return [
      '<CdtTrfTxInf>',
      `<PmtId><InstrId>${x(id35(p.instructionId))}</InstrId><EndToEndId>${x(id35(p.originalEndToEndId ?? 'NOTPROVIDED'))}</EndToEndId></PmtId>`,
      `<Amt><InstdAmt Ccy="EUR">${amount}</InstdAmt></Amt>`,
      p.creditorBic ? `<CdtrAgt>${agent(p.creditorBic)}</CdtrAgt>` : '',
      `<Cdtr><Nm>${x(toSepaText(p.creditorName, 70) || 'NOTPROVIDED')}</Nm></Cdtr>`,
      `<CdtrAcct><Id><IBAN>${x(p.creditorIban.replace(/\s+/g, '').toUpperCase())}</IBAN></Id></CdtrAcct>`,
      `<RmtInf><Ustrd>${x(toSepaText(p.remittance, 140))}</Ustrd></RmtInf>`,
      '</CdtTrfTxInf>',
    ].join('');
  });

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Document xmlns="${NS}">`,
    '<CstmrCdtTrfInitn>',
    '<GrpHdr>',
    `<MsgId>${x(msgId)}</MsgId>`,
    `<CreDtTm>${initiation.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}</CreDtTm>`,
    `<NbOfTxs>${count}</NbOfTxs>`,
    `<CtrlSum>${controlSum}</CtrlSum>`,
    `<InitgPty><Nm>${x(toSepaText(initiation.debtor.name, 70))}</Nm></InitgPty>`,
    '</GrpHdr>',
    '<PmtInf>',
    `<PmtInfId>${x(msgId)}</PmtInfId>`,
    '<PmtMtd>TRF</PmtMtd>',
    `<NbOfTxs>${count}</NbOfTxs>`,
    `<CtrlSum>${controlSum}</CtrlSum>`,
    '<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>',
    `<ReqdExctnDt><Dt>${x(initiation.requestedExecutionDate)}</Dt></ReqdExctnDt>`,
    `<Dbtr><Nm>${x(toSepaText(initiation.debtor.name, 70))}</Nm></Dbtr>`,
    `<DbtrAcct><Id><IBAN>${x(initiation.debtor.iban.replace(/\s+/g, '').toUpperCase())}</IBAN></Id></DbtrAcct>`,
    `<DbtrAgt>${agent(initiation.debtor.bic)}</DbtrAgt>`,
    '<ChrgBr>SLEV</ChrgBr>',
    ...transactions,
    '</PmtInf>',
    '</CstmrCdtTrfInitn>',
    '</Document>',
    '',
  ].join('\n');
}
