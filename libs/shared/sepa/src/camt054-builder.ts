// Writes a camt.054.001.08 credit notification: one booked credit entry per payment. For tests,
// demos and a bank simulator; the parser reads what this writes like any bank's file.
export interface Camt054Credit {
  accountServicerRef: string; // the bank's unique reference of the booking
  amount: string; // EUR, two decimals
  debtorName: string;
  debtorIban: string;
  structuredReference?: string; // RmtInf/Strd/CdtrRefInf/Ref
  unstructured?: string; // RmtInf/Ustrd
  endToEndId?: string;
  // The bank taking this credit back: a DBIT entry with RvslInd and the return reason code.
  reversal?: { reasonCode: string };
}

export interface Camt054Notification {
  messageId: string;
  accountIban: string;
  accountHolder: string;
  createdAt: Date;
  credits: Camt054Credit[];
}

const escape = (text: string): string =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

export function buildCamt054(n: Camt054Notification): string {
  const day = n.createdAt.toISOString().slice(0, 10);
  const entries = n.credits.map((c, i) => {
    const remittance = [
      c.unstructured !== undefined ? `<Ustrd>${escape(c.unstructured)}</Ustrd>` : '',
      c.structuredReference !== undefined
        ? `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp><Ref>${escape(c.structuredReference)}</Ref></CdtrRefInf></Strd>`
        : '',
    ].join('');
    return `
      <Ntry>
        <NtryRef>${i + 1}</NtryRef>
        <Amt Ccy="EUR">${c.amount}</Amt>
        <CdtDbtInd>${c.reversal ? 'DBIT' : 'CRDT'}</CdtDbtInd>${c.reversal ? '\n        <RvslInd>true</RvslInd>' : ''}
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${day}</Dt></BookgDt>
        <ValDt><Dt>${day}</Dt></ValDt>
        <AcctSvcrRef>${escape(c.accountServicerRef)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><AcctSvcrRef>${escape(c.accountServicerRef)}</AcctSvcrRef><EndToEndId>${escape(c.endToEndId ?? 'NOTPROVIDED')}</EndToEndId></Refs>
            <Amt Ccy="EUR">${c.amount}</Amt>
            <CdtDbtInd>${c.reversal ? 'DBIT' : 'CRDT'}</CdtDbtInd>
            <RltdPties>
              <Dbtr><Pty><Nm>${escape(c.debtorName)}</Nm></Pty></Dbtr>
              <DbtrAcct><Id><IBAN>${escape(c.debtorIban)}</IBAN></Id></DbtrAcct>
              <Cdtr><Pty><Nm>${escape(n.accountHolder)}</Nm></Pty></Cdtr>
            </RltdPties>
            ${remittance ? `<RmtInf>${remittance}</RmtInf>` : ''}
            ${c.reversal ? `<RtrInf><Rsn><Cd>${escape(c.reversal.reasonCode)}</Cd></Rsn></RtrInf>` : ''}
          </TxDtls>
        </NtryDtls>
      </Ntry>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr>
      <MsgId>${escape(n.messageId)}</MsgId>
      <CreDtTm>${n.createdAt.toISOString()}</CreDtTm>
    </GrpHdr>
    <Ntfctn>
      <Id>${escape(n.messageId)}-1</Id>
      <CreDtTm>${n.createdAt.toISOString()}</CreDtTm>
      <Acct><Id><IBAN>${escape(n.accountIban)}</IBAN></Id><Ccy>EUR</Ccy><Ownr><Nm>${escape(n.accountHolder)}</Nm></Ownr></Acct>${entries.join('')}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}
