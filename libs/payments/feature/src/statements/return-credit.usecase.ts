import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { conflict, notFound, ProblemException } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';
import { buildPain001Return } from '@onramp/payments-domain';

import { CollectionAccounts } from '../accounts/collection-accounts';
import { BankTransactionsRepository } from '../bank/bank-transactions.repository';
import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig, PAYMENTS_SCHEMA } from '../config';
import { PaymentsPayerData } from '../payer-data/payer-data.cipher';
import { ReturnsRepository } from './returns.repository';
import { lockCreditInSuspense } from './suspense-credit';

// Sends a suspense credit back to its payer: records the return (one per credit, unique) with its
// pain.001.001.09 in one transaction, then drops the file in the returns outbox for the bank.
// The money leaves when the operator uploads that file to the bank; a statement showing the
// debit moves the return from RETURN_PENDING to RETURNED. The creditor's name and IBAN and the
// pain.001 (which names them) are stored sealed under the payer-data ring, bound to the return.
@Injectable()
export class ReturnCreditUseCase {
  private readonly log = new Logger(ReturnCreditUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: CollectionAccounts,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
    private readonly payerData: PaymentsPayerData,
    private readonly credits: BankTransactionsRepository,
    private readonly returns: ReturnsRepository,
  ) {}

  async execute(creditId: string, reason: string, actor: AdminActor): Promise<{ returnId: string }> {
    const created = await this.dataSource.transaction(async (manager) => {
      const credit = await lockCreditInSuspense(this.credits, manager, creditId, {
        reversed: 'the bank took this credit back (reversal): nothing to return',
        notInSuspense: 'only a booked credit waiting in suspense can be returned',
      });
      const payerIban = this.payerData.open('bank-transaction', credit.id, 'payer-iban', credit.payerIban);
      const payerName = this.payerData.open('bank-transaction', credit.id, 'payer-name', credit.payerName);
      if (!payerIban) throw new ProblemException(422, 'the credit has no payer IBAN to return it to');
      // the money goes back from the account it arrived on
      const account =
        (credit.accountIban ? await this.accounts.find(credit.accountIban, manager) : null) ??
        this.config.collectionAccount;
      if (!account) {
        throw new ProblemException(
          503,
          'returns need the collection account (COLLECTION_IBAN, COLLECTION_BIC, COLLECTION_ACCOUNT_NAME or COLLECTION_ACCOUNTS)',
        );
      }
      if (await this.returns.existsForCredit(manager, credit.id))
        throw conflict('this credit is already being returned');
      const now = new Date();
      const returnId = randomUUID();
      const messageId = `RET${returnId.replace(/-/g, '').slice(0, 24).toUpperCase()}`;
      const pain001 = buildPain001Return({
        messageId,
        createdAt: now,
        requestedExecutionDate: now.toISOString().slice(0, 10),
        debtor: account,
        payments: [
          {
            instructionId: messageId,
            originalEndToEndId: credit.endToEndId,
            amount: credit.amount,
            creditorName: payerName || 'NOTPROVIDED',
            creditorIban: payerIban,
            creditorBic: null,
            remittance: `Return of your payment: ${reason}`,
          },
        ],
      });
      await this.returns.insertPending(manager, {
        id: returnId,
        bankTransactionId: credit.id,
        amount: credit.amount,
        currency: credit.currency,
        creditorName: this.payerData.seal('return', returnId, 'creditor-name', payerName),
        creditorIban: this.payerData.seal('return', returnId, 'creditor-iban', payerIban),
        originalEndToEndId: credit.endToEndId,
        reason,
        messageId,
        pain001: this.payerData.seal('return', returnId, 'pain001', pain001),
        creditorIbanIndex: this.payerData.ibanIndex(payerIban),
      });
      // the payer's name and IBAN stay out of the audit log: the return row has them
      await recordAdminAction(manager, PAYMENTS_SCHEMA, actor, {
        action: 'bank-transaction.return',
        target: credit.id,
        before: { suspense: true },
        after: { returnId, amount: credit.amount, currency: credit.currency, reason },
      });
      return { returnId, pain001 };
    });
    if (this.config.returnsOutbox) {
      // after the commit: a crash here leaves the file downloadable from the API
      try {
        await mkdir(this.config.returnsOutbox, { recursive: true });
        await writeFile(join(this.config.returnsOutbox, `${created.returnId}.pain001.xml`), created.pain001, {
          flag: 'wx',
        });
      } catch (err) {
        this.log.error(
          `return ${created.returnId}: pain.001 not written to the outbox: ${(err as Error).message}`,
        );
      }
    }
    return { returnId: created.returnId };
  }

  async pain001(returnId: string): Promise<string> {
    const sealed = await this.returns.findPain001(this.dataSource.manager, returnId);
    if (sealed === undefined) throw notFound('return not found');
    return this.payerData.open('return', returnId, 'pain001', sealed);
  }
}
