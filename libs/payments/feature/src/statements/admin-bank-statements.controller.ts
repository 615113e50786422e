import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { DataSource } from 'typeorm';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { badRequest, ProblemException } from '@onramp/http';
import { AdminActor } from '@onramp/persistence';

import { BankTransactionEntity } from '../bank/bank-transaction.entity';
import { BankTransactionsRepository } from '../bank/bank-transactions.repository';
import { PaymentsPayerData } from '../payer-data/payer-data.cipher';
import { AssignCreditUseCase } from './assign-credit.usecase';
import { ReturnCreditUseCase } from './return-credit.usecase';
import { IngestBankStatementUseCase, StatementCounts } from './ingest-bank-statement.usecase';

export class AssignCreditDto {
  @IsUUID()
  orderUuid!: string;
}

export class ReturnCreditDto {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  reason!: string;
}

const idParam = new ParseUUIDPipe({
  exceptionFactory: () => badRequest('id must be a UUID', [{ field: 'id', message: 'id must be a UUID' }]),
});

export interface SuspenseCredit {
  id: string;
  amount: string;
  currency: string;
  reference: string | null; // as found: structured reference, else free text, else end-to-end id
  payerName: string;
  payerIban: string | null;
  accountIban: string | null;
  reason: string;
  createdAt: string;
}

// the most credits one listing shows
const LIST_LIMIT = 500;

// Operators only (the gateway serves /admin/* on its loopback listener).
@Controller('admin')
@UseGuards(AdminGuard)
export class AdminBankStatementsController {
  constructor(
    private readonly ingest: IngestBankStatementUseCase,
    private readonly dataSource: DataSource,
    private readonly assignCredit: AssignCreditUseCase,
    private readonly payerData: PaymentsPayerData,
    private readonly returnCredit: ReturnCreditUseCase,
    private readonly credits: BankTransactionsRepository,
  ) {}

  // Sends a suspense credit back to its payer: 202, the money leaves when the bank runs the pain.001.
  @Post('bank-transactions/:id/return')
  @HttpCode(202)
  async return(
    @Param('id', idParam) id: string,
    @Body() input: ReturnCreditDto,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<{ returnId: string }> {
    return this.returnCredit.execute(id.toLowerCase(), input.reason.trim(), actor);
  }

  @Get('returns/:id/pain001')
  @Header('content-type', 'application/xml; charset=utf-8')
  async pain001(@Param('id', idParam) id: string): Promise<string> {
    return this.returnCredit.pain001(id.toLowerCase());
  }

  // The operator's decision that a suspense credit pays this order (exactly once).
  @Post('bank-transactions/:id/assign')
  @HttpCode(200)
  async assign(
    @Param('id', idParam) id: string,
    @Body() input: AssignCreditDto,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<{ id: string; orderUuid: string; payedAmount: string }> {
    return this.assignCredit.execute(id.toLowerCase(), input.orderUuid.toLowerCase(), actor);
  }

  // The raw camt.053 / camt.054 file, Content-Type application/xml.
  @Post('bank-statements')
  @HttpCode(201)
  async upload(@Body() body: unknown, @CurrentAdminActor() actor: AdminActor): Promise<StatementCounts> {
    if (typeof body !== 'string' || body.trim().length === 0) {
      throw new ProblemException(
        415,
        'send the camt.053 or camt.054 file itself with Content-Type: application/xml',
      );
    }
    return this.ingest.execute(body, actor);
  }

  // Credits that pay nothing and wait for the operator.
  @Get('bank-transactions')
  // ?reversed=true: credits the bank took back, those that had paid an order first (to check their payout).
  async list(
    @Query('suspense') suspense: string | undefined,
    @Query('reversed') reversed: string | undefined,
  ): Promise<SuspenseCredit[]> {
    if ((suspense === 'true') === (reversed === 'true'))
      throw badRequest('give ?suspense=true or ?reversed=true', [
        { field: 'suspense', message: 'suspense=true or reversed=true is required' },
      ]);
    if (reversed === 'true') {
      const credits = await this.credits.listReversed(this.dataSource.manager, LIST_LIMIT);
      return credits.map((t) => ({ ...this.present(t), reason: reversedReason(t) }));
    }
    const rows = await this.credits.listSuspense(this.dataSource.manager, LIST_LIMIT);
    return rows.map((t) => this.present(t));
  }

  private present(t: BankTransactionEntity): SuspenseCredit {
    return {
      id: t.id,
      amount: t.amount,
      currency: t.currency,
      reference: t.referenceRaw ?? t.remittanceInformation ?? t.endToEndId,
      // opened for the operator, who returns or assigns the credit
      payerName: this.payerData.open('bank-transaction', t.id, 'payer-name', t.payerName),
      payerIban: this.payerData.open('bank-transaction', t.id, 'payer-iban', t.payerIban),
      accountIban: t.accountIban,
      reason: t.suspenseReason ?? '',
      createdAt: t.createdAt.toISOString(),
    };
  }
}

// What the operator reads: a paid credit's payout either went ahead (check it) or was stopped.
function reversedReason(t: BankTransactionEntity): string {
  const code = `REVERSED${t.reversalReason ? ` ${t.reversalReason}` : ''}`;
  if (t.matchStatus !== 'MATCHED') return code;
  if (t.payoutStoppedAt)
    return `${code} before the payout of order ${t.matchedOrderUuid}: payout stopped, order FAILED`;
  return `${code} after paying order ${t.matchedOrderUuid}`;
}
