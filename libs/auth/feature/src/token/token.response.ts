import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { TokenResponse } from './issue-token.usecase';

// The documented shape of the token response (RFC 6749 section 5.1).
@ApiSchema({ name: 'AccessToken', description: 'A Bearer access token (OAuth 2.0 client credentials).' })
export class AccessTokenResponse implements TokenResponse {
  @ApiProperty({
    description:
      'The access token, a JWT (ES256). Send it as `Authorization: Bearer <access_token>` on every other request.',
    example: 'eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6Ii4uLiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl',
  })
  access_token!: string;

  @ApiProperty({ description: 'Always `Bearer`.', enum: ['Bearer'], example: 'Bearer' })
  token_type!: 'Bearer';

  @ApiProperty({
    description:
      'Seconds until the token expires (15 minutes by default). After that, requests get 401: fetch a new token.',
    type: 'integer',
    example: 900,
  })
  expires_in!: number;
}
