import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { MAX_WEBHOOK_URL_LENGTH } from '@onramp/webhooks-domain';

@ApiSchema({ name: 'SetWebhookUrlRequest' })
export class SetWebhookUrlDto {
  @ApiProperty({
    description:
      'Absolute https URL that receives the events. It must not point to loopback, private, link-local or metadata addresses, also after DNS resolution. In sandbox mode plain http is allowed to loopback (e.g. http://127.0.0.1:9999/hook).',
    format: 'uri',
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    example: 'https://merchant.example/hooks/onramp',
  })
  @IsString({ message: 'url must be a string' })
  @IsNotEmpty({ message: 'url is required' })
  @MaxLength(MAX_WEBHOOK_URL_LENGTH, { message: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` })
  url!: string;
}
