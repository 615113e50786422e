import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { AppendEvent, OutboxWriter } from '@onramp/messaging';
import { normalizeDecimal } from '@onramp/money';

import { BankTransactionEntity } from '../bank/bank-transaction.entity';
import { BankTransactionsRepository } from '../bank/bank-transactions.repository';
import { PaymentsPayerData } from '../payer-data/payer-data.cipher';
import { OpenReferenceEntity } from '../references/open-reference.entity';

export type MatchOutcome = 'confirmed' | 'failed' | 'duplicate';

export const REJECTED_CREDIT_REASON = 'SEPA credit rejected by the bank';

// Applies one credit to one reference. Call it inside the transaction that holds the reference
// row lock: the state change and its event commit together, and only an OPEN reference pays.
@Injectable()
export class CreditMatcher {
  private readonly log = new Logger(CreditMatcher.name);

  constructor(
    private readonly outbox: OutboxWriter,
    private readonly payerData: PaymentsPayerData,
    private readonly credits: BankTransactionsRepository,
  ) {}

  async apply(
    manager: EntityManager,
    credit: BankTransactionEntity,
    ref: OpenReferenceEntity,
    payedAmount: string = credit.amount, // what the amount policy lets this credit pay
  ): Promise<MatchOutcome> {
    const now = new Date();
    // the credit's merchant is the order's, whoever sent the credit
    const link = {
      matchedReference: ref.reference,
      matchedOrderUuid: ref.orderUuid,
      merchantId: ref.merchantId,
    };
    if (ref.status !== 'OPEN') {
      // a late or second payment: it waits in suspense for the operator to return it
      const suspenseReason = ref.status === 'EXPIRED' ? 'ORDER_EXPIRED' : 'DUPLICATE';
      await this.credits.markDuplicate(manager, credit.id, link, suspenseReason, now);
      credit.matchStatus = 'DUPLICATE';
      this.log.warn(
        `credit ${credit.id} for ${ref.status} reference of order ${ref.orderUuid} in suspense (${suspenseReason}); it does not pay`,
      );
      return 'duplicate';
    }

    const booked = credit.status === 'BOOKED';
    ref.status = booked ? 'MATCHED' : 'CLOSED';
    ref.matchedBankTransactionId = credit.id;
    // The match and its event in one statement (prepare validates the event before anything is written).
    const event = this.outbox.prepare(
      booked ? this.confirmed(credit, ref, payedAmount) : this.failed(credit, ref),
    );
    await this.credits.markMatched(
      manager,
      credit.id,
      link,
      { referenceStatus: ref.status, payerNameCheck: credit.payerNameCheck },
      now,
      { table: this.outbox.table, values: event.values },
    );
    credit.matchStatus = 'MATCHED';
    credit.suspenseReason = null;
    return booked ? 'confirmed' : 'failed';
  }

  private confirmed(
    credit: BankTransactionEntity,
    ref: OpenReferenceEntity,
    payedAmount: string,
  ): AppendEvent<typeof Topics.PaymentConfirmed> {
    return {
      type: Topics.PaymentConfirmed,
      key: ref.orderUuid,
      merchantId: ref.merchantId,
      data: {
        orderUuid: ref.orderUuid,
        bankTransactionId: credit.id,
        reference: ref.reference,
        payedAmount: normalizeDecimal(payedAmount),
        currency: 'EUR',
        // sealed for this order: settlement and orders pass it on, webhook-dispatch opens it
        payerAccountHolderName: this.payerData.nameForOrder(
          ref.orderUuid,
          this.payerData.open('bank-transaction', credit.id, 'payer-name', credit.payerName),
        ),
        recipientAddress: ref.recipientAddress,
        bookedAt: credit.createdAt.toISOString(),
      },
    };
  }

  private failed(
    credit: BankTransactionEntity,
    ref: OpenReferenceEntity,
  ): AppendEvent<typeof Topics.PaymentFailed> {
    return {
      type: Topics.PaymentFailed,
      key: ref.orderUuid,
      merchantId: ref.merchantId,
      data: {
        orderUuid: ref.orderUuid,
        bankTransactionId: credit.id,
        reference: ref.reference,
        payedAmount: '0',
        reason: REJECTED_CREDIT_REASON,
      },
    };
  }
}
