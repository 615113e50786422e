import { Body, Controller, Get, Param, ParseUUIDPipe, Put, UseGuards } from '@nestjs/common';
import { IsIn, IsOptional, ValidateIf } from 'class-validator';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { badRequest } from '@onramp/http';
import { AdminActor } from '@onramp/persistence';
import { AMOUNT_POLICIES, AmountPolicy, PAYER_NAME_POLICIES, PayerNamePolicy } from '@onramp/payments-domain';

import { MerchantPaymentPolicy, MerchantPolicies } from './merchant-policies';

export class SetPaymentPolicyDto {
  @IsOptional()
  @IsIn(AMOUNT_POLICIES)
  amountPolicy?: AmountPolicy;

  // null puts the merchant back on the default (PAYER_NAME_POLICY, else by mode)
  @ValidateIf((o: SetPaymentPolicyDto) => o.payerNamePolicy !== null && o.payerNamePolicy !== undefined)
  @IsIn(PAYER_NAME_POLICIES)
  payerNamePolicy?: PayerNamePolicy | null;
}

const merchantParam = new ParseUUIDPipe({
  exceptionFactory: () =>
    badRequest('merchantId must be a UUID', [{ field: 'merchantId', message: 'merchantId must be a UUID' }]),
});

// GET/PUT /admin/payment-policies/{merchantId}: the amount policy (FLEXIBLE, EXACT) and the payer
// name policy (OFF, WARN, HOLD) of one merchant's orders.
@Controller('admin/payment-policies')
@UseGuards(AdminGuard)
export class AdminPaymentPoliciesController {
  constructor(private readonly policies: MerchantPolicies) {}

  @Get(':merchantId')
  get(@Param('merchantId', merchantParam) merchantId: string): Promise<MerchantPaymentPolicy> {
    return this.policies.get(merchantId.toLowerCase());
  }

  @Put(':merchantId')
  set(
    @Param('merchantId', merchantParam) merchantId: string,
    @Body() input: SetPaymentPolicyDto,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<MerchantPaymentPolicy> {
    if (input.amountPolicy === undefined && input.payerNamePolicy === undefined)
      throw badRequest('give amountPolicy, payerNamePolicy or both', [
        { field: 'amountPolicy', message: 'amountPolicy or payerNamePolicy is required' },
      ]);
    return this.policies.set(merchantId.toLowerCase(), input, actor);
  }
}
