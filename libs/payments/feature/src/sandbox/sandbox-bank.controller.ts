import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CurrentMerchant, MerchantAuthGuard } from '@onramp/auth';
import { badRequest } from '@onramp/http';
import { ApiMerchantAuth } from '@onramp/openapi';

import { CreateSepaCreditDto } from './create-sepa-credit.dto';
import { eurAmountToString } from './eur-amount.validator';
import { RecordSepaCreditUseCase } from './record-sepa-credit.usecase';
import { ApiCreateSepaCredit } from './sandbox-bank.openapi';
import { SandboxOnlyGuard } from './sandbox-only.guard';

// A fake bank feed for sandbox merchants: "the end user paid" becomes one HTTP call.
const HINTS = {
  unmatched:
    'no open order of yours has this reference (yet): the credit is kept and pays the order if one with this reference is created; check the reference against the order (RF...)',
  duplicate: 'this reference was already paid: the credit is stored as unmatched and pays nothing',
  held: 'the payment policies hold this credit (amount outside the tolerance or the maximum, or the payer is not the KYC user): it waits in suspense for an operator',
} as const;

@Controller('sandbox')
@UseGuards(SandboxOnlyGuard, MerchantAuthGuard)
@ApiTags('Sandbox bank')
@ApiMerchantAuth()
export class SandboxBankController {
  constructor(private readonly recordCredit: RecordSepaCreditUseCase) {}

  @Post('sepa-credits')
  @HttpCode(202)
  @ApiCreateSepaCredit()
  async createCredit(
    @CurrentMerchant() merchantId: string,
    @Body() body: CreateSepaCreditDto,
  ): Promise<{ bankTransactionId: string; hint?: string }> {
    const amount = eurAmountToString(body.amount);
    if (amount === undefined)
      throw badRequest('the request has invalid fields', [{ field: 'amount', message: 'invalid amount' }]);
    const { bankTransactionId, outcome } = await this.recordCredit.execute({
      merchantId,
      reference: body.reference,
      amount,
      currency: body.currency,
      payerName: body.payerName.trim(),
      payerIban: body.payerIban?.replace(/\s+/g, '').toUpperCase(),
      remittanceInformation: body.remittanceInformation,
      endToEndId: body.endToEndId,
      status: body.status ?? 'BOOKED',
    });
    // A credit that pays nothing is still a 202 (the bank booked it), but say why nothing happens.
    const hint =
      outcome === 'unmatched' || outcome === 'duplicate' || outcome === 'held' ? HINTS[outcome] : undefined;
    return hint ? { bankTransactionId, hint } : { bankTransactionId };
  }
}
