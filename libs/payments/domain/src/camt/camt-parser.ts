import { XMLParser, XMLValidator } from 'fast-xml-parser';

import { DecimalError, fromScaledFixed, toScaled } from '@onramp/money';

import {
  BankStatement,
  CamtMessageKind,
  CamtParseError,
  CreditDebit,
  StatementTransaction,
} from './bank-statement';
import { XmlCursor, XmlObject } from './xml-cursor';

// Elements that may repeat in camt.053 / camt.054 (any version from 001.02 to 001.13): always
// read as lists so one entry and many entries take the same path.
const REPEATED = new Set(['Ntfctn', 'Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'Bal']);

const ROOTS: Record<string, { kind: CamtMessageKind; report: string }> = {
  BkToCstmrDbtCdtNtfctn: { kind: 'camt.054', report: 'Ntfctn' },
  BkToCstmrStmt: { kind: 'camt.053', report: 'Stmt' },
};

const AMOUNT = /^\d{1,18}(\.\d{1,5})?$/;
const CURRENCY = /^[A-Z]{3}$/;

// Parses a camt.053 or camt.054 file. Anything that would make a credit ambiguous (no amount, no
// account, no reference to recognise a replay, a batch whose parts do not add up) is an error
// naming the element, and nothing of the file is used.
export function parseCamt(xml: string): BankStatement {
  if (/<!DOCTYPE/i.test(xml))
    throw new CamtParseError('a DOCTYPE is not allowed in a bank statement', 'prolog');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new CamtParseError(
      `not well-formed XML: ${valid.err.msg}`,
      `line ${valid.err.line}, column ${valid.err.col}`,
    );
  }
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    isArray: (name) => REPEATED.has(name),
  }).parse(xml) as XmlObject;

  const document = new XmlCursor(parsed, '').child('Document');
  if (!document.exists) throw new CamtParseError('root element is not Document', '/');
  const rootName = Object.keys(ROOTS).find((name) => document.child(name).exists);
  if (!rootName) {
    throw new CamtParseError(
      'not a camt.053 or camt.054 message (BkToCstmrStmt or BkToCstmrDbtCdtNtfctn)',
      'Document',
    );
  }
  const { kind, report } = ROOTS[rootName];
  const root = document.child(rootName);
  const namespace = /camt\.05[34]\.(\d{3}\.\d{2})/.exec(xml);

  const transactions: StatementTransaction[] = [];
  let entryCount = 0;
  const reports = root.children(report);
  if (reports.length === 0) root.child(report).fail('no report in the message');
  for (const rpt of reports) {
    const acct = rpt.at('Acct', 'Id');
    const accountIban = (
      acct.child('IBAN').text() ??
      acct.at('Othr', 'Id').text() ??
      acct.child('IBAN').fail('missing account IBAN')
    )
      .replace(/\s+/g, '')
      .toUpperCase();
    for (const entry of rpt.children('Ntry')) {
      entryCount += 1;
      transactions.push(...entryTransactions(entry, accountIban));
    }
  }

  const seen = new Set<string>();
  for (const tx of transactions) {
    const id = `${tx.accountIban}|${tx.key}`;
    if (seen.has(id))
      throw new CamtParseError(`two transactions share the reference ${tx.key}`, `account ${tx.accountIban}`);
    seen.add(id);
  }

  return {
    kind,
    version: namespace?.[1] ?? 'unknown',
    messageId: root.at('GrpHdr', 'MsgId').requiredText(),
    createdAt: root.at('GrpHdr', 'CreDtTm').text(),
    transactions,
    entryCount,
  };
}

function entryTransactions(entry: XmlCursor, accountIban: string): StatementTransaction[] {
  const entryAmount = readAmount(entry.child('Amt'));
  const direction = readDirection(entry.child('CdtDbtInd'));
  // 001.02 writes <Sts>BOOK</Sts>, 001.08 writes <Sts><Cd>BOOK</Cd></Sts>
  const status =
    entry.child('Sts').text() ?? entry.at('Sts', 'Cd').text() ?? entry.child('Sts').fail('missing status');
  const reversal = entry.child('RvslInd').text() === 'true';
  const entryRef = entry.child('AcctSvcrRef').text() ?? entry.child('NtryRef').text();
  const bookingDate = entry.at('BookgDt', 'Dt').text() ?? entry.at('BookgDt', 'DtTm').text();
  const valueDate = entry.at('ValDt', 'Dt').text() ?? entry.at('ValDt', 'DtTm').text();

  const details = entry.children('NtryDtls').flatMap((d) => d.children('TxDtls'));
  const base = {
    accountIban,
    entryReference: entry.child('NtryRef').text(),
    status,
    reversal,
    bookingDate,
    valueDate,
  };
  if (details.length === 0) {
    return [
      {
        ...base,
        key: entryRef ?? entry.child('AcctSvcrRef').fail('entry has neither AcctSvcrRef nor NtryRef'),
        accountServicerReference: entry.child('AcctSvcrRef').text(),
        direction,
        returnReason: null,
        ...entryAmount,
        endToEndId: null,
        instructionId: null,
        structuredReferences: [],
        unstructured: entry.child('AddtlNtryInf').text(),
        debtorName: null,
        debtorIban: null,
        debtorBic: null,
        creditorName: null,
        creditorIban: null,
      },
    ];
  }

  const batched = details.length > 1;
  const txs = details.map((tx, i): StatementTransaction => {
    const txRef = tx.at('Refs', 'AcctSvcrRef').text();
    const fallback = entryRef ? (batched ? `${entryRef}/${i + 1}` : entryRef) : null;
    const key =
      txRef ?? fallback ?? tx.at('Refs', 'AcctSvcrRef').fail('no AcctSvcrRef or NtryRef to recognise it');
    const amount = transactionAmount(tx, batched ? null : entryAmount);
    const txDirection = tx.child('CdtDbtInd').exists ? readDirection(tx.child('CdtDbtInd')) : direction;
    const parties = tx.child('RltdPties');
    return {
      ...base,
      key,
      accountServicerReference: txRef ?? entry.child('AcctSvcrRef').text(),
      direction: txDirection,
      returnReason: tx.at('RtrInf', 'Rsn', 'Cd').text() ?? tx.at('RtrInf', 'Rsn', 'Prtry').text(),
      ...amount,
      endToEndId: tx.at('Refs', 'EndToEndId').text(),
      instructionId: tx.at('Refs', 'InstrId').text(),
      structuredReferences: tx
        .at('RmtInf')
        .children('Strd')
        .map((s) => s.at('CdtrRefInf', 'Ref').text())
        .filter((r): r is string => r !== null),
      unstructured: joinLines(
        tx
          .child('RmtInf')
          .children('Ustrd')
          .map((u) => u.text()),
      ),
      debtorName: partyName(parties.child('Dbtr')),
      debtorIban: iban(parties.child('DbtrAcct')),
      debtorBic:
        tx.at('RltdAgts', 'DbtrAgt', 'FinInstnId', 'BIC').text() ??
        tx.at('RltdAgts', 'DbtrAgt', 'FinInstnId', 'BICFI').text(),
      creditorName: partyName(parties.child('Cdtr')),
      creditorIban: iban(parties.child('CdtrAcct')),
    };
  });

  if (batched) {
    const total = txs.reduce((sum, tx) => sum + toScaled(tx.amount, 2), 0n);
    if (
      txs.every((tx) => tx.currency === entryAmount.currency) &&
      total !== toScaled(entryAmount.amount, 2)
    ) {
      entry
        .child('Amt')
        .fail(
          `batch of ${txs.length} transactions adds up to ${fromScaledFixed(total, 2)}, not ${entryAmount.amount}`,
        );
    }
  }
  return txs;
}

function readAmount(amt: XmlCursor): { amount: string; currency: string } {
  const raw = amt.requiredText();
  const currency = amt.attribute('Ccy');
  if (!AMOUNT.test(raw)) amt.fail(`amount "${raw}" is not a decimal number`);
  if (!currency || !CURRENCY.test(currency)) amt.fail('missing or invalid Ccy');
  try {
    // EUR has cents; a non-zero third decimal is not an amount a SEPA payment can carry
    return { amount: fromScaledFixed(toScaled(raw, 2), 2), currency };
  } catch (e) {
    if (e instanceof DecimalError) amt.fail(e.message);
    throw e;
  }
}

// 001.02 nests it in AmtDtls/TxAmt/Amt; 001.08 has Amt directly in TxDtls.
function transactionAmount(tx: XmlCursor, entryAmount: { amount: string; currency: string } | null) {
  if (tx.child('Amt').exists) return readAmount(tx.child('Amt'));
  const nested = tx.at('AmtDtls', 'TxAmt', 'Amt');
  if (nested.exists) return readAmount(nested);
  if (entryAmount) return entryAmount;
  return tx.child('Amt').fail('a batched transaction must carry its own amount');
}

function readDirection(c: XmlCursor): CreditDebit {
  const v = c.requiredText();
  if (v !== 'CRDT' && v !== 'DBIT') c.fail(`CdtDbtInd must be CRDT or DBIT, not "${v}"`);
  return v;
}

// 001.02: Dbtr/Nm; 001.08: Dbtr/Pty/Nm.
function partyName(party: XmlCursor): string | null {
  return party.child('Nm').text() ?? party.at('Pty', 'Nm').text();
}

function iban(account: XmlCursor): string | null {
  return account.at('Id', 'IBAN').text()?.replace(/\s+/g, '').toUpperCase() ?? null;
}

function joinLines(lines: (string | null)[]): string | null {
  const kept = lines.filter((l): l is string => l !== null);
  return kept.length > 0 ? kept.join(' ') : null;
}
