import { Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CurrentMerchant, MerchantAuthGuard } from '@onramp/auth';
import { ApiMerchantAuth } from '@onramp/openapi';

import { ApiRevealWebhookSecret, ApiSendTestEvent } from './webhook-tools.openapi';
import { TestEventResult, WebhookToolsUseCase } from './webhook-tools.usecase';

// Beside MerchantWebhookController (same prefix): what the sandbox dashboard needs on top of the API.
@Controller('merchant/webhook')
@UseGuards(MerchantAuthGuard)
@ApiTags('Webhooks')
@ApiMerchantAuth()
export class WebhookToolsController {
  constructor(private readonly tools: WebhookToolsUseCase) {}

  @Get('secret')
  @ApiRevealWebhookSecret()
  secret(@CurrentMerchant() merchantId: string): Promise<{ url: string; secret: string }> {
    return this.tools.revealSecret(merchantId);
  }

  @Post('test')
  @HttpCode(200)
  @ApiSendTestEvent()
  test(@CurrentMerchant() merchantId: string): Promise<TestEventResult> {
    return this.tools.sendTestEvent(merchantId);
  }
}
