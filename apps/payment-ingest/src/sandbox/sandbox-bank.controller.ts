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
  ): Promise<{ bankTransactionId: string }> {
    const amount = eurAmountToString(body.amount);
    if (amount === undefined)
      throw badRequest('the request has invalid fields', [{ field: 'amount', message: 'invalid amount' }]);
    const { bankTransactionId } = await this.recordCredit.execute({
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
    return { bankTransactionId };
  }
}
