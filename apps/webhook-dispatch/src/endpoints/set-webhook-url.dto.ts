import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { MAX_WEBHOOK_URL_LENGTH } from '@onramp/webhooks-domain';

export class SetWebhookUrlDto {
  @IsString({ message: 'url must be a string' })
  @IsNotEmpty({ message: 'url is required' })
  @MaxLength(MAX_WEBHOOK_URL_LENGTH, { message: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` })
  url!: string;
}
