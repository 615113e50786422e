import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { OutboxRelay } from '@onramp/messaging';
import { pickReference, referenceCandidates } from '@onramp/payments-domain';

import { BankTransactionEntity, BankTransactionStatus, NEWLY_BOOKED } from '../bank/bank-transaction.entity';
import { BankTransactionsRepository } from '../bank/bank-transactions.repository';
import { StatementCreditSettler } from '../matching/statement-credit-settler';
import { CreditMatcher, MatchOutcome } from '../matching/credit-matcher';
import { PaymentsPayerData } from '../payer-data/payer-data.cipher';
import { OpenReferencesRepository } from '../references/open-references.repository';

export interface RecordSepaCreditInput {
  merchantId: string;
  reference?: string;
  amount: string; // EUR, canonical decimal string
  currency: 'EUR';
  payerName: string;
  payerIban?: string;
  remittanceInformation?: string;
  endToEndId?: string;
  status: BankTransactionStatus;
}

// Stores an incoming SEPA credit and, in the same transaction, matches it against the merchant's
// open references: a BOOKED match confirms the payment, a REJECTED one fails it, a credit for an
// already used reference is kept as DUPLICATE and never pays.
@Injectable()
export class RecordSepaCreditUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly matcher: CreditMatcher,
    private readonly settler: StatementCreditSettler,
    private readonly relay: OutboxRelay,
    private readonly payerData: PaymentsPayerData,
    private readonly references: OpenReferencesRepository,
    private readonly credits: BankTransactionsRepository,
  ) {}

  async execute(
    input: RecordSepaCreditInput,
  ): Promise<{ bankTransactionId: string; outcome: MatchOutcome | 'unmatched' | 'held' }> {
    const candidates = referenceCandidates(input);
    const now = new Date();
    const id = randomUUID();
    const payerIban = input.payerIban ?? null;
    const credit: BankTransactionEntity = {
      id,
      merchantId: input.merchantId,
      source: 'SANDBOX',
      accountIban: null,
      accountServicerRef: null,
      statementMessageId: null,
      suspenseReason: null,
      referenceRaw: input.reference ?? null,
      remittanceInformation: input.remittanceInformation ?? null,
      endToEndId: input.endToEndId ?? null,
      candidateReferences: candidates,
      amount: input.amount,
      currency: input.currency,
      payerName: this.payerData.seal('bank-transaction', id, 'payer-name', input.payerName),
      payerIban: this.payerData.seal('bank-transaction', id, 'payer-iban', payerIban),
      payerIbanIndex: this.payerData.ibanIndex(payerIban),
      status: input.status,
      ...NEWLY_BOOKED,
      createdAt: now,
      updatedAt: now,
    };

    const outcome = await this.dataSource.transaction(
      async (manager): Promise<MatchOutcome | 'unmatched' | 'held'> => {
        // the locks in a statement of their own, sent with the next one, which then reads what
        // committed before them
        await this.references.lockKeys(manager, candidates);
        const found = await this.credits.insertAndLockMerchantReferences(manager, credit, candidates);
        const picked = pickReference(
          found.map((f) => f.ref),
          candidates,
        );
        if (!picked) return 'unmatched';
        const { ref, context } = found.find((f) => f.ref === picked) as (typeof found)[number];
        // a booked credit meets the same amount and payer name policies as a statement credit
        if (credit.status === 'BOOKED' && ref.status === 'OPEN')
          return (await this.settler.settle(manager, credit, ref, context)) === 'matched'
            ? 'confirmed'
            : 'held';
        return this.matcher.apply(manager, credit, ref);
      },
    );
    if (outcome === 'confirmed' || outcome === 'failed') this.relay.nudge();
    return { bankTransactionId: credit.id, outcome };
  }
}
