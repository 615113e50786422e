import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { OutboxRelay } from '@onramp/messaging';
import { GatheredWrites } from '@onramp/persistence';
import { pickReference, referenceCandidates } from '@onramp/payments-domain';

import { BankTransactionEntity, BankTransactionStatus, NEWLY_BOOKED } from '../bank/bank-transaction.entity';
import { BankTransactionsRepository, ReferenceWithContext } from '../bank/bank-transactions.repository';
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

type CreditOutcome = MatchOutcome | 'unmatched' | 'held';

// One credit to write: its id and time are fixed once, so a credit written again alone (after a
// shared transaction failed) is the same credit.
interface CreditToWrite {
  input: RecordSepaCreditInput;
  id: string;
  at: Date;
  candidates: string[];
}

// Stores an incoming SEPA credit and, in the same transaction, matches it against the merchant's
// open references: a BOOKED match confirms the payment, a REJECTED one fails it, a credit for an
// already used reference is kept as DUPLICATE and never pays. Credits that arrive together share a
// transaction (GatheredWrites): one round trip for their locks and inserts, one for their matches
// and the commit, each credit still judged on its own. Two credits naming the same reference never
// share one: the second waits for the first's commit and sees its match, as it would alone.
// One write at a time: a burst of 500 credits took 2.6 statements a payout against 3.1 with two at a
// time (docs/performance-journal.md, 2026-12-02).
@Injectable()
export class RecordSepaCreditUseCase {
  private readonly writes: GatheredWrites<CreditToWrite, CreditOutcome>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly matcher: CreditMatcher,
    private readonly settler: StatementCreditSettler,
    private readonly relay: OutboxRelay,
    private readonly payerData: PaymentsPayerData,
    private readonly references: OpenReferencesRepository,
    private readonly credits: BankTransactionsRepository,
  ) {
    this.writes = new GatheredWrites(
      { one: (credit) => this.writeOne(credit), many: (credits) => this.writeMany(credits) },
      { keysOf: (credit) => credit.candidates },
    );
  }

  async execute(
    input: RecordSepaCreditInput,
  ): Promise<{ bankTransactionId: string; outcome: CreditOutcome }> {
    const credit: CreditToWrite = {
      input,
      id: randomUUID(),
      at: new Date(),
      candidates: referenceCandidates(input),
    };
    const outcome = await this.writes.write(credit);
    if (outcome === 'confirmed' || outcome === 'failed') this.relay.nudge();
    return { bankTransactionId: credit.id, outcome };
  }

  private writeOne(write: CreditToWrite): Promise<CreditOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const credit = this.entityOf(write);
      // the locks in a statement of their own, sent with the next one, which then reads what
      // committed before them
      await this.references.lockKeys(manager, write.candidates);
      const found = await this.credits.insertAndLockMerchantReferences(manager, credit, write.candidates);
      return this.apply(manager, credit, found);
    });
  }

  private writeMany(writes: readonly CreditToWrite[]): Promise<CreditOutcome[]> {
    return this.dataSource.transaction(async (manager) => {
      const credits = writes.map((w) => this.entityOf(w));
      await this.references.lockKeys(manager, [...new Set(writes.flatMap((w) => w.candidates))]);
      const found = await this.credits.insertManyAndLockMerchantReferences(manager, credits);
      const outcomes: CreditOutcome[] = [];
      for (const [i, credit] of credits.entries())
        outcomes.push(await this.apply(manager, credit, found[i] ?? []));
      return outcomes;
    });
  }

  // What the credit does with the references it found (locked): pays one, or why not.
  private async apply(
    manager: EntityManager,
    credit: BankTransactionEntity,
    found: ReferenceWithContext[],
  ): Promise<CreditOutcome> {
    const picked = pickReference(
      found.map((f) => f.ref),
      credit.candidateReferences,
    );
    if (!picked) return 'unmatched';
    const { ref, context } = found.find((f) => f.ref === picked) as ReferenceWithContext;
    // a booked credit meets the same amount and payer name policies as a statement credit
    if (credit.status === 'BOOKED' && ref.status === 'OPEN')
      return (await this.settler.settle(manager, credit, ref, context)) === 'matched' ? 'confirmed' : 'held';
    return this.matcher.apply(manager, credit, ref);
  }

  private entityOf({ input, id, at, candidates }: CreditToWrite): BankTransactionEntity {
    const payerIban = input.payerIban ?? null;
    return {
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
      createdAt: at,
      updatedAt: at,
    };
  }
}
