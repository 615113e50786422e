import { randomUUID } from 'node:crypto';

import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { badRequest, ProblemException } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';
import { Topics } from '@onramp/contracts';
import { OutboxRelay, OutboxWriter } from '@onramp/messaging';
import { normalizeDecimal } from '@onramp/money';
import {
  BankStatement,
  CamtParseError,
  creditReferenceCandidates,
  parseCamt,
  pickReference,
  StatementTransaction,
} from '@onramp/payments-domain';

import { BankTransactionEntity, NEWLY_BOOKED } from '../bank/bank-transaction.entity';
import { BankTransactionsRepository, ReferenceWithContext } from '../bank/bank-transactions.repository';
import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig, PAYMENTS_SCHEMA } from '../config';
import { StatementCreditSettler } from '../matching/statement-credit-settler';
import { CollectionAccounts } from '../accounts/collection-accounts';
import { PaymentsPayerData } from '../payer-data/payer-data.cipher';
import { OpenReferencesRepository } from '../references/open-references.repository';
import { BankStatementsRepository } from './bank-statements.repository';
import { ReturnsRepository } from './returns.repository';

export interface StatementCounts {
  messageId: string;
  entries: number;
  creditsBooked: number; // new booked credits stored from this file
  creditsMatched: number; // of those, how many paid an order
  duplicates: number; // credits already known (same account and AcctSvcrRef, or the whole file)
}

// Books the credits of a camt.053/054 file. The whole file is one transaction: it parses
// completely or changes nothing, and a replay (same message id, or the same bookings in another
// file, e.g. the evening camt.053 after the morning camt.054) books nothing twice.
@Injectable()
export class IngestBankStatementUseCase {
  private readonly log = new Logger(IngestBankStatementUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly settler: StatementCreditSettler,
    private readonly accounts: CollectionAccounts,
    private readonly relay: OutboxRelay,
    private readonly outbox: OutboxWriter,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
    private readonly payerData: PaymentsPayerData,
    private readonly references: OpenReferencesRepository,
    private readonly credits: BankTransactionsRepository,
    private readonly statements: BankStatementsRepository,
    private readonly returns: ReturnsRepository,
  ) {}

  parse(xml: string): BankStatement {
    try {
      return parseCamt(xml);
    } catch (err) {
      if (err instanceof CamtParseError) {
        throw badRequest(`bank statement not read: ${err.message}`, [
          { field: 'body', message: err.message },
        ]);
      }
      throw err;
    }
  }

  async execute(xml: string, actor: AdminActor): Promise<StatementCounts> {
    const statement = this.parse(xml);
    const credits = statement.transactions.filter(
      (t) => t.direction === 'CRDT' && t.status === 'BOOK' && !t.reversal && t.currency === 'EUR',
    );
    await this.assertOurAccounts(statement);
    let reversedPaid = 0;
    const counts = await this.dataSource.transaction(async (manager): Promise<StatementCounts> => {
      const result: StatementCounts = {
        messageId: statement.messageId,
        entries: statement.entryCount,
        creditsBooked: 0,
        creditsMatched: 0,
        duplicates: 0,
      };
      const first = await this.statements.insertOnce(manager, {
        messageId: statement.messageId,
        kind: statement.kind,
        version: statement.version,
        entries: statement.entryCount,
      });
      if (!first) return { ...result, duplicates: credits.length };
      for (const tx of statement.transactions) {
        if (tx.direction === 'DBIT' && tx.status === 'BOOK' && !tx.reversal)
          await this.settleReturn(manager, tx);
      }
      for (const tx of statement.transactions) {
        if (tx.direction === 'DBIT' && tx.status === 'BOOK' && tx.reversal)
          if (await this.reverseCredit(manager, tx)) reversedPaid++;
      }
      for (const tx of credits) {
        const outcome = await this.book(manager, statement, tx);
        if (outcome === 'duplicate') result.duplicates++;
        else result.creditsBooked++;
        if (outcome === 'matched') result.creditsMatched++;
      }
      await this.statements.recordCounts(manager, statement.messageId, result);
      await recordAdminAction(manager, PAYMENTS_SCHEMA, actor, {
        action: 'bank-statement.upload',
        target: statement.messageId,
        after: { ...result, kind: statement.kind },
      });
      return result;
    });
    if (counts.creditsMatched > 0 || reversedPaid > 0) this.relay.nudge();
    this.log.log(
      `statement ${statement.messageId} (${statement.kind} ${statement.version}): ${counts.creditsBooked} credits booked, ${counts.creditsMatched} matched, ${counts.duplicates} duplicates`,
    );
    return counts;
  }

  private async book(
    manager: EntityManager,
    statement: BankStatement,
    tx: StatementTransaction,
  ): Promise<'duplicate' | 'matched' | 'suspense'> {
    const candidates = creditReferenceCandidates({
      structured: tx.structuredReferences,
      unstructured: tx.unstructured,
      endToEndId: tx.endToEndId,
    });
    await this.references.lockKeys(manager, candidates);
    const now = new Date();
    const id = randomUUID();
    const credit: BankTransactionEntity = {
      id,
      merchantId: null,
      source: 'STATEMENT',
      accountIban: tx.accountIban,
      accountServicerRef: tx.key,
      statementMessageId: statement.messageId,
      suspenseReason: null,
      referenceRaw: tx.structuredReferences[0] ?? null,
      remittanceInformation: tx.unstructured,
      endToEndId: tx.endToEndId,
      candidateReferences: candidates,
      amount: tx.amount,
      currency: tx.currency,
      payerName: this.payerData.seal('bank-transaction', id, 'payer-name', tx.debtorName ?? ''),
      payerIban: this.payerData.seal('bank-transaction', id, 'payer-iban', tx.debtorIban),
      payerIbanIndex: this.payerData.ibanIndex(tx.debtorIban),
      status: 'BOOKED',
      ...NEWLY_BOOKED,
      createdAt: now,
      updatedAt: now,
    };
    // the credit, the row locks of the references it names and what settling needs: one statement
    const booked = await this.credits.insertOnceAndLockReferences(manager, credit, candidates);
    if (!booked.inserted) return 'duplicate';
    const picked = pickReference(
      booked.found.map((f) => f.ref),
      candidates,
    );
    if (!picked) return this.suspend(manager, credit, 'UNKNOWN_REFERENCE');
    const { ref, context } = booked.found.find((f) => f.ref === picked) as ReferenceWithContext;
    return this.settler.settle(manager, credit, ref, context);
  }

  // A credit belongs to the account it arrived on. In production a statement of an account that is
  // not one of ours (a wrong file, another company's account) is refused whole: it changes nothing.
  private async assertOurAccounts(statement: BankStatement): Promise<void> {
    if (this.config.mode !== 'production') return;
    const ibans = [
      ...new Set(statement.transactions.map((t) => t.accountIban).filter((i): i is string => !!i)),
    ];
    for (const iban of ibans) {
      if (!(await this.accounts.find(iban)))
        throw new ProblemException(
          422,
          `bank statement not read: account ${iban} is not one of the platform's collection accounts (COLLECTION_IBAN, COLLECTION_ACCOUNTS)`,
        );
    }
  }

  // The bank took a credit back (recall, fraud, the payer's bank's return): the same payer IBAN (its
  // blind index; the plain IBAN for rows stored before sealing) and amount, and the same reference or
  // end-to-end id. A credit that paid nothing simply leaves
  // suspense (there is nothing to return any more). A credit that paid an order announces it
  // (payment.reversed, in this transaction): settlement cancels the payout if it is not signed yet
  // and the order fails; once signed, the transfer goes ahead and the credit stays flagged for the
  // operator (recovering the payout is a decision, not a rule). Returns whether it had paid an order.
  private async reverseCredit(manager: EntityManager, tx: StatementTransaction): Promise<boolean> {
    const candidates = creditReferenceCandidates({
      structured: tx.structuredReferences,
      unstructured: tx.unstructured,
      endToEndId: tx.endToEndId,
    });
    const e2e = tx.endToEndId && tx.endToEndId !== 'NOTPROVIDED' ? tx.endToEndId : null;
    const reason = tx.returnReason ?? 'reversal';
    const credit = await this.credits.reverseLatestMatching(manager, {
      payerIban: tx.debtorIban,
      payerIbanIndexes: tx.debtorIban ? this.payerData.ibanIndexes(tx.debtorIban) : [],
      amount: tx.amount,
      candidateReferences: candidates,
      endToEndId: e2e,
      reversalRef: tx.key,
      reason,
    });
    if (!credit) {
      this.log.warn(`reversal ${tx.key} of ${tx.amount} EUR matches no booked credit; left for the operator`);
      return false;
    }
    if (credit.matchStatus !== 'MATCHED' || !credit.matchedOrderUuid || !credit.merchantId) return false;
    this.log.error(
      `credit ${credit.id} that paid order ${credit.matchedOrderUuid} was reversed by the bank (${reason}): its payout is stopped if not signed yet, else check it`,
    );
    await this.outbox.append(manager, {
      type: Topics.PaymentReversed,
      key: credit.matchedOrderUuid,
      merchantId: credit.merchantId,
      data: {
        orderUuid: credit.matchedOrderUuid,
        bankTransactionId: credit.id,
        reference: credit.matchedReference ?? '',
        amount: normalizeDecimal(credit.amount),
        reason,
      },
    });
    return true;
  }

  // A booked debit to a payer we owe a return: the money left, RETURN_PENDING -> RETURNED. Matched
  // on the payer's IBAN and the amount, and on the original end-to-end id when the bank shows one.
  private async settleReturn(manager: EntityManager, tx: StatementTransaction): Promise<void> {
    if (!tx.creditorIban) return;
    const e2e = tx.endToEndId && tx.endToEndId !== 'NOTPROVIDED' ? tx.endToEndId : null;
    await this.returns.settleOldestMatching(manager, {
      creditorIban: tx.creditorIban,
      creditorIbanIndexes: this.payerData.ibanIndexes(tx.creditorIban),
      amount: tx.amount,
      endToEndId: e2e,
    });
  }

  private async suspend(
    manager: EntityManager,
    credit: BankTransactionEntity,
    reason: string,
  ): Promise<'suspense'> {
    await this.credits.markSuspense(manager, credit.id, reason, new Date());
    return 'suspense';
  }
}
