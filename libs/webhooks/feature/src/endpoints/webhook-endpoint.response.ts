import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

import { WebhookEndpointView } from './webhook-endpoint.view';

const URL_EXAMPLE = 'https://merchant.example/hooks/onramp';
const SECRET_DESCRIPTION =
  'The shared secret that signs every delivery: `X-Webhook-Signature` is the lowercase hex HMAC-SHA256 of the exact body bytes keyed with this whole string. Shown only when it is created or rotated; store it.';

// The documented endpoint (webhook-endpoint.view.ts builds it); `implements` keeps both in step.
@ApiSchema({
  name: 'WebhookEndpoint',
  description: "The merchant's webhook endpoint. Never includes the secret.",
})
export class WebhookEndpointResponse implements WebhookEndpointView {
  @ApiProperty({ description: 'Where events are POSTed.', format: 'uri', example: URL_EXAMPLE })
  url!: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:00:00.000Z' })
  updatedAt!: string;

  @ApiProperty({
    description: 'True after the endpoint answered 410 Gone: deliveries wait until the URL is set again.',
    example: false,
  })
  disabled!: boolean;

  @ApiPropertyOptional({ description: 'When it was disabled.', format: 'date-time' })
  disabledAt?: string;

  @ApiPropertyOptional({ description: 'Why it was disabled.', example: 'the endpoint answered 410 Gone' })
  disabledReason?: string;
}

@ApiSchema({
  name: 'WebhookEndpointSet',
  description: 'The URL, and the signing secret when the endpoint was just created.',
})
export class WebhookEndpointSetResponse {
  @ApiProperty({ format: 'uri', example: URL_EXAMPLE })
  url!: string;

  @ApiPropertyOptional({
    description: `${SECRET_DESCRIPTION} Present only when this call created the endpoint; changing the URL keeps the secret.`,
    example: 'whsec_63JkD4ZGVWiw/dkxlVQyhLtcuL6CPIUe',
  })
  secret?: string;
}

@ApiSchema({ name: 'WebhookSecret', description: 'The URL and its new signing secret.' })
export class WebhookSecretResponse {
  @ApiProperty({ format: 'uri', example: URL_EXAMPLE })
  url!: string;

  @ApiProperty({ description: SECRET_DESCRIPTION, example: 'whsec_63JkD4ZGVWiw/dkxlVQyhLtcuL6CPIUe' })
  secret!: string;
}
