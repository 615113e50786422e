// What we keep of an ISO 20022 bank-to-customer message (camt.053 statement or camt.054
// notification), flattened to one line per transaction. Amounts are exact decimal strings.

export type CamtMessageKind = 'camt.053' | 'camt.054';
export type CreditDebit = 'CRDT' | 'DBIT';

export interface BankStatement {
  kind: CamtMessageKind;
  version: string; // "001.02", "001.08", ...
  messageId: string; // GrpHdr/MsgId: a replayed file has the same one
  createdAt: string | null; // GrpHdr/CreDtTm as written
  transactions: StatementTransaction[];
  entryCount: number; // Ntry elements, batched or not
}

export interface StatementTransaction {
  // Unique per account: the transaction's AcctSvcrRef, else the entry's, suffixed "/n" for the
  // n-th transaction of a batch. Replays are recognised by (accountIban, key).
  key: string;
  accountIban: string; // the account the money arrived on (or left)
  entryReference: string | null; // Ntry/NtryRef
  accountServicerReference: string | null;
  direction: CreditDebit;
  // Booked entries only are final; PDNG / INFO are announced, not money.
  status: string; // BOOK, PDNG, INFO
  reversal: boolean; // Ntry/RvslInd: a credit taken back, or a debit given back
  returnReason: string | null; // RtrInf/Rsn/Cd (AC04, MD07, ...): the payment came back
  amount: string; // EUR with 2 decimals, e.g. "250.00"
  currency: string;
  bookingDate: string | null;
  valueDate: string | null;
  endToEndId: string | null; // "NOTPROVIDED" is kept as written
  instructionId: string | null;
  structuredReferences: string[]; // RmtInf/Strd/CdtrRefInf/Ref, in order
  unstructured: string | null; // RmtInf/Ustrd lines joined by one space
  debtorName: string | null;
  debtorIban: string | null;
  debtorBic: string | null;
  creditorName: string | null;
  creditorIban: string | null;
}

export class CamtParseError extends Error {
  constructor(
    message: string,
    readonly where: string, // element path ("Ntfctn[0]/Ntry[2]/Amt") or "line 12, column 5"
  ) {
    super(`${message} at ${where}`);
  }
}
